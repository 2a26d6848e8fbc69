/**
 * Step-up: a call the server refuses for a permission the login did not ask for. Where the
 * call can ask someone (the window, a terminal: its question channel), they are shown the
 * login address with the reason; opening it logs in again for that permission with the ones
 * the login had, and the call is made again. Declining fails the call saying how to log in,
 * and a permission the server still refuses after that login is not asked for again.
 */
import { describe, expect, it } from 'vitest'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import type { ElicitationAsk, ToolCallScope } from '../../src-main/core/ports'
import type { ElicitAnswer } from '../../src-preload/contract/elicitation'
import { connectWithOAuth, follow, tempDir, useCleanups } from '../support/oauth-client'
import { startOAuthServer, type OAuthServerOptions } from '../support/oauth-server'

const cleanup = useCleanups()

async function loggedIn(o: OAuthServerOptions) {
  const server = await startOAuthServer(o)
  cleanup(() => server.close())
  const store = new McpAuthStore(openSecrets(tempDir('cairn-step-up-', cleanup)))
  await loginToServer('remote', { url: server.url }, { store, open: follow })
  const conn = await connectWithOAuth(server.url, store, cleanup)
  const authorizations = (): URLSearchParams[] =>
    server.requests.filter((r) => r.path === '/authorize').map((r) => r.query)
  return { server, conn, authorizations }
}

/** a call whose person answers a login question with `answer` (opening the page on accept) */
function asking(answer: ElicitAnswer['action']): { ctx: ToolCallScope; asked: ElicitationAsk[] } {
  const asked: ElicitationAsk[] = []
  const ctx = {
    signal: new AbortController().signal,
    sessionId: 's',
    toolCallId: 't',
    elicit: async (ask: ElicitationAsk): Promise<ElicitAnswer> => {
      asked.push(ask)
      if (answer === 'accept' && ask.url) await follow(ask.url)
      return { action: answer }
    },
  } as ToolCallScope
  return { ctx, asked }
}

describe('step-up', () => {
  it('asks to log in again for the permission, keeps the one it had, and makes the call again', async () => {
    const { conn, authorizations } = await loggedIn({ challengeScope: 'read', adminScope: 'admin' })
    const { ctx, asked } = asking('accept')
    const out = await conn.call('admin', {}, ctx)
    expect(out.content[0]).toEqual({ type: 'text', text: 'scope: read admin' })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ server: 'remote', mode: 'url' })
    expect(asked[0]?.message).toMatch(/To run admin, "remote" needs the permission "admin"/)
    expect(new URL(asked[0]!.url!).pathname).toBe('/authorize')
    // the first login, then the step-up asking for both permissions
    expect(authorizations().map((q) => q.get('scope'))).toEqual(['read', 'read admin'])
    expect(conn.status()).toBe('ready')
  })

  it('declined: the call fails saying how to log in, and no login happens', async () => {
    const { conn, authorizations } = await loggedIn({ challengeScope: 'read', adminScope: 'admin' })
    const { ctx, asked } = asking('decline')
    await expect(conn.call('admin', {}, ctx)).rejects.toThrow(
      /needs the permission "admin".*"Log in" in Settings › MCP servers, or run `cairn mcp login remote`/,
    )
    expect(asked).toHaveLength(1)
    // the authorization address was made but never opened: nothing came back
    expect(authorizations()).toHaveLength(1)
    expect(conn.status()).toBe('ready')
  })

  it('a permission still refused after the step-up login is not asked for again', async () => {
    const { conn, authorizations } = await loggedIn({
      challengeScope: 'read',
      adminScope: 'admin',
      withhold: ['admin'],
    })
    const { ctx, asked } = asking('accept')
    await expect(conn.call('admin', {}, ctx)).rejects.toThrow(
      /refused Cairn's token for lack of the permission "admin", which your login already asked for/,
    )
    expect(asked).toHaveLength(1)
    expect(authorizations()).toHaveLength(2)
    // and the next call to it is not asked about either: the login asked for it already
    await expect(conn.call('admin', {}, ctx)).rejects.toThrow(/already asked for/)
    expect(asked).toHaveLength(1)
    expect(conn.status()).toBe('ready')
  })
})
