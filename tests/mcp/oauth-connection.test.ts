/**
 * A protected remote server through McpConnection: "needs login" before a login (without
 * registering a client), the token on every request after it, a refresh when the access
 * token expires, "needs login" again when the tokens are revoked, step-up on
 * insufficient_scope, and the tokens surviving a restart of the app (the secrets store).
 */
import { describe, expect, it } from 'vitest'
import type { McpConnection } from '../../src-main/adapters/mcp/connection'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import type { ToolCallScope } from '../../src-main/core/ports'
import { connectWithOAuth, follow, tempDir, useCleanups } from '../support/oauth-client'
import {
  startOAuthServer,
  type OAuthServer,
  type OAuthServerOptions,
} from '../support/oauth-server'

const cleanup = useCleanups()

async function setup(o: OAuthServerOptions = {}): Promise<{
  server: OAuthServer
  dir: string
  store: () => McpAuthStore
  connect: () => Promise<McpConnection>
}> {
  const server = await startOAuthServer(o)
  cleanup(() => server.close())
  const dir = tempDir('cairn-oauth-conn-', cleanup)
  // every call opens the secrets file afresh, as a restarted app does
  const store = (): McpAuthStore => new McpAuthStore(openSecrets(dir))
  const connect = (): Promise<McpConnection> => connectWithOAuth(server.url, store(), cleanup)
  return { server, dir, store, connect }
}

function ctx(): ToolCallScope {
  return { signal: new AbortController().signal } as unknown as ToolCallScope
}

const text = (o: { content: unknown[] }): string =>
  (o.content[0] as { text?: string } | undefined)?.text ?? ''

describe('a protected MCP server', () => {
  it('needs a login first, without registering a client, then works with the token', async () => {
    const { server, store, connect } = await setup({ challengeScope: 'read' })
    const before = await connect()
    expect(before.status()).toBe('needs-login')
    expect(before.info().error).toMatch(/log in.*cairn mcp login remote/)
    expect(server.requests.map((r) => r.path)).not.toContain('/register')

    await loginToServer('remote', { url: server.url }, { store: store(), open: follow })
    const after = await connect()
    expect(after.status()).toBe('ready')
    expect(after.tools().map((t) => t.name)).toEqual(['whoami', 'admin', 'leak'])
    expect(text(await after.call('whoami', {}, ctx()))).toBe('scope: read')
    const mcpCalls = server.requests.filter((r) => r.path === '/mcp' && r.method === 'POST')
    expect(mcpCalls.at(-1)?.headers.authorization).toBe(`Bearer ${server.issued[0]}`)
  })

  it('logs in to a server that speaks the legacy SSE transport only, and sends it the token', async () => {
    const { server, store, connect } = await setup({ sse: true })
    expect((await connect()).status()).toBe('needs-login')
    await loginToServer('remote', { url: server.url }, { store: store(), open: follow })
    const c = await connect()
    expect(c.status()).toBe('ready')
    expect(c.info().transport).toBe('sse')
    expect(text(await c.call('whoami', {}, ctx()))).toBe('over sse')
    const posted = server.requests.filter((r) => r.path === '/messages')
    expect(posted.length).toBeGreaterThan(0)
    for (const r of posted) expect(r.headers.authorization).toBe(`Bearer ${server.issued[0]}`)
  })

  it('refreshes an expired access token, and keeps the tokens across a restart', async () => {
    const { server, store, connect } = await setup()
    await loginToServer('remote', { url: server.url }, { store: store(), open: follow })
    const first = await connect()
    await first.stop()
    server.expireAccess()
    // a new connection with a freshly opened secrets store: the stored refresh token works
    const again = await connect()
    expect(again.status()).toBe('ready')
    expect(text(await again.call('whoami', {}, ctx()))).toBe('scope: (none)')
    const refreshes = server.requests.filter(
      (r) =>
        r.path === '/token' && new URLSearchParams(r.body).get('grant_type') === 'refresh_token',
    )
    expect(refreshes).toHaveLength(1)
    expect(store().read(server.url).tokens?.access_token).toBe(server.issued[1])
  })

  it('a revoked token leads to "needs login", not a failed call with a stack trace', async () => {
    const { server, store, connect } = await setup()
    await loginToServer('remote', { url: server.url }, { store: store(), open: follow })
    const c = await connect()
    expect(c.status()).toBe('ready')
    server.revokeAll()
    const call = c.call('whoami', {}, ctx())
    await expect(call).rejects.toThrow(/needs you to log in/)
    await call.catch((e: Error) => expect(e.message).not.toMatch(/\n\s+at /))
    expect(c.status()).toBe('needs-login')
  })

  it('insufficient_scope without anyone to ask: the call fails saying how to log in, then a login asks for that scope', async () => {
    const { server, store, connect } = await setup({ challengeScope: 'read', adminScope: 'admin' })
    await loginToServer('remote', { url: server.url }, { store: store(), open: follow })
    const c = await connect()
    await expect(c.call('admin', {}, ctx())).rejects.toThrow(
      /needs the permission "admin", which your login does not give: log in again/,
    )
    // the server's other tools still work
    expect(c.status()).toBe('ready')
    const adminCalls = server.requests.filter(
      (r) => r.path === '/mcp' && r.body.includes('"admin"'),
    )
    expect(adminCalls.length).toBeGreaterThanOrEqual(1)
    expect(adminCalls.length).toBeLessThanOrEqual(3)

    const scopes: (string | null)[] = []
    await loginToServer(
      'remote',
      { url: server.url },
      {
        store: store(),
        open: async (u) => (scopes.push(u.searchParams.get('scope')), follow(u)),
      },
    )
    // the scope the login had, and the one the server asked for (not lost by the step-up)
    expect(scopes).toEqual(['read admin'])
    const after = await connect()
    expect(text(await after.call('admin', {}, ctx()))).toBe('scope: read admin')
  })
})
