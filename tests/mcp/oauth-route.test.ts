/**
 * The window's "Log in" (route `mcp.login`) against the scripted authorization server: the
 * host shows the address through `openAuthorization` (the desktop app's dialog and shell),
 * the route answers with it, and the server becomes ready once the browser came back;
 * `mcp.logout` brings back "needs login". A pre-registered client's secret moves from the
 * settings to the secrets store when the server is saved.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { follow, tempDir, useCleanups } from '../support/oauth-client'
import {
  startOAuthServer,
  type OAuthServer,
  type OAuthServerOptions,
} from '../support/oauth-server'

const cleanup = useCleanups()

async function host(openAuthorization: (server: string, url: string) => Promise<boolean>) {
  const dir = tempDir('cairn-oauth-route-', cleanup)
  const h: AppHost = await createAppHost({
    dataDir: dir,
    hostKind: 'web',
    version: 'test',
    env: {},
    openAuthorization,
  })
  cleanup(() => h.shutdown())
  const call = async <T>(route: string, input: unknown): Promise<T> => {
    const r = (await h.router.handle(route, input)) as
      { ok: true; data: T } | { ok: false; error: { message: string } }
    if (!r.ok) throw new Error(r.error.message)
    return r.data
  }
  return { dir, call, h }
}

async function server(o: OAuthServerOptions = {}): Promise<OAuthServer> {
  const s = await startOAuthServer({ challengeScope: 'read', ...o })
  cleanup(() => s.close())
  return s
}

async function until(test: () => Promise<boolean>): Promise<void> {
  while (!(await test())) await new Promise((r) => setTimeout(r, 20))
}

describe('mcp.login', () => {
  it('shows the address, opens it, and the server turns ready after the login', async () => {
    const auth = await server()
    const shown: [string, string][] = []
    const { call } = await host(async (name, url) => {
      shown.push([name, url])
      void follow(url)
      return true
    })
    await call('mcp.add', { name: 'remote', config: { url: auth.url } })
    await call('mcp.update', { name: 'remote', enabled: true })
    const list = async () => (await call<{ servers: McpServerInfo[] }>('mcp.list', {})).servers[0]!
    await until(async () => (await list()).state !== 'starting')
    expect((await list()).state).toBe('needs-login')

    const r = await call<{ authorizationUrl: string }>('mcp.login', { name: 'remote' })
    expect(r.authorizationUrl).toMatch(new RegExp(`^${auth.origin}/authorize\\?`))
    expect(shown).toEqual([['remote', r.authorizationUrl]])
    await until(async () => (await list()).state === 'ready')
    expect((await list()).tools.map((t) => t.name)).toContain('whoami')

    await call('mcp.logout', { name: 'remote' })
    await until(async () => (await list()).state !== 'starting')
    expect((await list()).state).toBe('needs-login')
  })

  it('a declined address leaves the server at "needs login", saying so', async () => {
    const auth = await server()
    const { call } = await host(async () => false)
    await call('mcp.add', { name: 'remote', config: { url: auth.url } })
    await call('mcp.update', { name: 'remote', enabled: true })
    // the route says so at once (the window shows it beside Log in), and so does the server
    await expect(call('mcp.login', { name: 'remote' })).rejects.toThrow(/cancelled/)
    const list = async () => (await call<{ servers: McpServerInfo[] }>('mcp.list', {})).servers[0]!
    await until(async () => /cancelled/.test((await list()).error ?? ''))
    expect((await list()).state).toBe('needs-login')
    expect(auth.requests.map((r) => r.path)).not.toContain('/token')
  })

  it("moves a configured client's secret to the secrets store, and logs in with it", async () => {
    const auth = await server({
      noRegistration: true,
      clients: { app: { secret: 'very-secret-value', method: 'client_secret_basic' } },
      authMethods: ['client_secret_basic'],
    })
    const { call, dir } = await host(async (_name, url) => {
      void follow(url)
      return true
    })
    await call('mcp.add', {
      name: 'remote',
      config: { url: auth.url, oauth: { clientId: 'app', clientSecret: 'very-secret-value' } },
    })
    const settings = readFileSync(join(dir, 'settings.json'), 'utf8')
    expect(settings).toContain('"clientId": "app"')
    expect(settings).not.toContain('very-secret-value')
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain('very-secret-value')
    await call('mcp.update', { name: 'remote', enabled: true })
    await call('mcp.login', { name: 'remote' })
    const list = async () => (await call<{ servers: McpServerInfo[] }>('mcp.list', {})).servers[0]!
    await until(async () => (await list()).state === 'ready')
    const exchange = auth.requests.find((r) => r.path === '/token')!
    expect(exchange.headers.authorization).toBe(
      `Basic ${Buffer.from('app:very-secret-value').toString('base64')}`,
    )
    // removing the server forgets its login and its client's secret
    await call('mcp.remove', { name: 'remote' })
    const left = readFileSync(join(dir, 'secrets.json'), 'utf8')
    expect(left).not.toContain('very-secret-value')
    expect(left).not.toContain(auth.issued[0]!)
  })
})
