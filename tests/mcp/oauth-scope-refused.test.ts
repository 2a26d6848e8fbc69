/**
 * A server that keeps saying `insufficient_scope` for a scope the login already asked for
 * (the account does not have it): Cairn asks for one login with that scope, then stops
 * asking. A refused tool call fails with the reason while the server stays usable; a server
 * that refuses its tool list is an error, not "needs login", and is not restarted. (The
 * conformance suite's auth/scope-retry-limit scenario counts such logins: at most three.)
 * Here nobody can be asked during a call (no question channel), so a call that needs more
 * permission fails saying how to log in; tests/mcp/oauth-step-up.test.ts asks.
 */
import { describe, expect, it } from 'vitest'
import type { McpConnection } from '../../src-main/adapters/mcp/connection'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import type { ToolCallScope } from '../../src-main/core/ports'
import { connectWithOAuth, follow, tempDir, useCleanups } from '../support/oauth-client'
import { startOAuthServer, type OAuthServerOptions } from '../support/oauth-server'

const cleanup = useCleanups()

/** the browser: follows the authorization page's redirect back to the callback */
async function setup(o: OAuthServerOptions) {
  const server = await startOAuthServer(o)
  cleanup(() => server.close())
  const dir = tempDir('cairn-oauth-refused-', cleanup)
  const store = new McpAuthStore(openSecrets(dir))
  const asked: (string | null)[] = []
  const login = (): Promise<void> =>
    loginToServer(
      'remote',
      { url: server.url },
      { store, open: async (u) => (asked.push(u.searchParams.get('scope')), follow(u)) },
    )
  const connect = (): Promise<McpConnection> => connectWithOAuth(server.url, store, cleanup)
  return { server, store, asked, login, connect }
}

const ctx = (): ToolCallScope =>
  ({ signal: new AbortController().signal }) as unknown as ToolCallScope

describe('a scope the server refuses after a login asked for it', () => {
  it('fails that call with the reason, asks for no further login, and keeps the server', async () => {
    const { server, asked, login, connect } = await setup({
      challengeScope: 'read',
      adminScope: 'admin',
      withhold: ['admin'],
    })
    await login()
    const first = await connect()
    // the first refusal names a scope no login asked for yet: a login may get it
    await expect(first.call('admin', {}, ctx())).rejects.toThrow(
      /needs the permission "admin".*cairn mcp login remote/,
    )
    expect(first.status()).toBe('ready')

    await login()
    expect(asked).toEqual(['read', 'read admin'])
    const c = await connect()
    expect(c.status()).toBe('ready')
    // the login asked for "admin" and the server still refuses it: no login would help
    await expect(c.call('admin', {}, ctx())).rejects.toThrow(
      /refused Cairn's token for lack of the permission "admin", which your login already asked for/,
    )
    expect(c.status()).toBe('ready')
    expect(c.info().error).toBeNull()
    // the other tools still work with the token the server accepts
    const ok = await c.call('whoami', {}, ctx())
    expect(ok.content[0]).toEqual({ type: 'text', text: 'scope: read' })
    expect(server.requests.filter((r) => r.path === '/authorize')).toHaveLength(2)
  })

  it('a refused tool list is an error that names the permission, not "needs login", and is not restarted', async () => {
    const { server, asked, login, connect } = await setup({
      challengeScope: 'read',
      listScope: 'admin',
      withhold: ['admin'],
    })
    await login()
    const first = await connect()
    expect(first.status()).toBe('needs-login')
    expect(first.info().error).toMatch(/"admin"/)

    await login()
    expect(asked).toEqual(['read', 'read admin'])
    const c = await connect()
    expect(c.status()).toBe('error')
    expect(c.info().error).toMatch(/lack of the permission "admin".*already asked for/)
    const lists = (): number => server.requests.filter((r) => r.body.includes('tools/list')).length
    const before = lists()
    // a restart would come after 10 ms (restartBaseMs): wait well past it
    await new Promise((r) => setTimeout(r, 300))
    expect(lists()).toBe(before)
    expect(c.status()).toBe('error')
    expect(server.requests.filter((r) => r.path === '/authorize')).toHaveLength(2)
  })

  it('a scope the login did not ask for still leads to a login asking for it (step-up)', async () => {
    const { asked, login, connect } = await setup({ challengeScope: 'read', adminScope: 'admin' })
    await login()
    const c = await connect()
    await expect(c.call('admin', {}, ctx())).rejects.toThrow(/needs the permission "admin"/)
    await login()
    expect(asked).toEqual(['read', 'read admin'])
    const after = await connect()
    expect((await after.call('admin', {}, ctx())).content[0]).toEqual({
      type: 'text',
      text: 'scope: read admin',
    })
  })
})

describe('the scope a login asks for', () => {
  it("is the one named by the 401 the connection got, when the server's initialize needs no token", async () => {
    const { asked, login, connect } = await setup({
      openInitialize: true,
      challengeScope: 'read',
      scopesSupported: ['read', 'write', 'admin'],
    })
    const first = await connect()
    expect(first.status()).toBe('needs-login')
    await login()
    // not every scope the server supports: the one its challenge named
    expect(asked).toEqual(['read'])
    const c = await connect()
    expect(c.status()).toBe('ready')
    expect((await c.call('whoami', {}, ctx())).content[0]).toEqual({
      type: 'text',
      text: 'scope: read',
    })
  })
})
