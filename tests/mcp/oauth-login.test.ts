/**
 * Logging in to a protected MCP server against a scripted authorization server, with the
 * SDK's client auth: discovery, registration, PKCE, state, the code exchange, scopes, and a
 * pre-registered client authenticating with client_secret_basic and client_secret_post.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { follow, tempDir, useCleanups } from '../support/oauth-client'
import {
  startOAuthServer,
  type OAuthServer,
  type OAuthServerOptions,
} from '../support/oauth-server'

const cleanup = useCleanups()

async function setup(
  o: OAuthServerOptions = {},
): Promise<{ server: OAuthServer; store: McpAuthStore; dir: string }> {
  const server = await startOAuthServer(o)
  cleanup(() => server.close())
  const dir = tempDir('cairn-oauth-', cleanup)
  return { server, store: new McpAuthStore(openSecrets(dir)), dir }
}

/** a browser that follows the authorization page's redirect back to the callback */
describe('MCP OAuth login', () => {
  it('discovers, registers, authorizes with PKCE S256, state and resource, and stores the tokens', async () => {
    const { server, store } = await setup({ challengeScope: 'read' })
    const opened: URL[] = []
    await loginToServer(
      'remote',
      { url: server.url },
      {
        store,
        open: async (u) => {
          opened.push(u)
          await follow(u)
        },
      },
    )
    expect(opened).toHaveLength(1)
    const q = opened[0]!.searchParams
    expect(q.get('code_challenge_method')).toBe('S256')
    expect(q.get('resource')).toBe(server.url)
    expect(q.get('scope')).toBe('read')
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/)
    expect(q.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    const paths = server.requests.map((r) => r.path)
    expect(paths).toContain('/.well-known/oauth-protected-resource/mcp')
    expect(paths).toContain('/.well-known/oauth-authorization-server')
    expect(paths).toContain('/register')
    const exchange = server.requests.find((r) => r.path === '/token')!
    const form = new URLSearchParams(exchange.body)
    expect(createHash('sha256').update(form.get('code_verifier')!).digest('base64url')).toBe(
      q.get('code_challenge'),
    )
    expect(store.read(server.url).tokens?.access_token).toBe(server.issued[0])
    expect(store.read(server.url).tokens?.refresh_token).toBe(server.refreshIssued[0])
  })

  it('asks for scopes_supported when the 401 names no scope, and none when neither does', async () => {
    const a = await setup({ scopesSupported: ['files', 'mail'] })
    const seen: (string | null)[] = []
    await loginToServer(
      'a',
      { url: a.server.url },
      {
        store: a.store,
        open: async (u) => (seen.push(u.searchParams.get('scope')), follow(u)),
      },
    )
    const b = await setup({})
    await loginToServer(
      'b',
      { url: b.server.url },
      {
        store: b.store,
        open: async (u) => (seen.push(u.searchParams.get('scope')), follow(u)),
      },
    )
    expect(seen).toEqual(['files mail', null])
  })

  it('finds the metadata at the well-known paths and through OpenID discovery', async () => {
    const { server, store } = await setup({ noResourceMetadataHint: true, openIdOnly: true })
    await loginToServer('remote', { url: server.url }, { store, open: follow })
    expect(server.requests.map((r) => r.path)).toContain('/.well-known/openid-configuration')
    expect(store.hasTokens(server.url)).toBe(true)
  })

  it('uses a client ID metadata document where the server supports it, and registers nowhere', async () => {
    const { server, store } = await setup({ cimd: true })
    const doc = 'https://cairn.example.org/oauth/client.json'
    const opened: URL[] = []
    await loginToServer(
      'remote',
      { url: server.url, oauth: { clientMetadataUrl: doc } },
      {
        store,
        open: async (u) => (opened.push(u), follow(u)),
      },
    )
    expect(opened[0]?.searchParams.get('client_id')).toBe(doc)
    expect(server.requests.map((r) => r.path)).not.toContain('/register')
    expect(store.hasTokens(server.url)).toBe(true)
  })

  it('registers dynamically when the server does not support client ID metadata documents', async () => {
    const { server, store } = await setup()
    const doc = 'https://cairn.example.org/oauth/client.json'
    await loginToServer(
      'remote',
      { url: server.url, oauth: { clientMetadataUrl: doc } },
      {
        store,
        open: follow,
      },
    )
    expect(server.requests.map((r) => r.path)).toContain('/register')
  })

  for (const legacy of [true, 'bare'] as const) {
    it(`logs in to a 2025-03-26 server (${legacy === true ? 'metadata at its origin' : 'default endpoints'})`, async () => {
      const { server, store } = await setup({ legacy })
      const opened: URL[] = []
      await loginToServer(
        'old',
        { url: server.url },
        {
          store,
          open: async (u) => (opened.push(u), follow(u)),
        },
      )
      expect(opened[0]?.pathname).toBe('/authorize')
      expect(opened[0]?.searchParams.get('code_challenge_method')).toBe('S256')
      expect(opened[0]?.searchParams.has('resource')).toBe(false)
      expect(store.read(server.url).tokens?.access_token).toBe(server.issued[0])
    })
  }

  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`uses a pre-registered client with ${method}`, async () => {
      const { server, store } = await setup({
        noRegistration: true,
        clients: { 'my-app': { secret: 's3cret-value', method } },
        authMethods: [method],
      })
      await loginToServer(
        'remote',
        {
          url: server.url,
          oauth: { clientId: 'my-app', clientSecret: 's3cret-value', scopes: ['x'] },
        },
        { store, open: follow },
      )
      const exchange = server.requests.find((r) => r.path === '/token')!
      if (method === 'client_secret_basic')
        expect(exchange.headers.authorization).toMatch(/^Basic /)
      else expect(new URLSearchParams(exchange.body).get('client_secret')).toBe('s3cret-value')
      expect(server.requests.map((r) => r.path)).not.toContain('/register')
      expect(store.hasTokens(server.url)).toBe(true)
    })
  }

  it('refuses a callback without the state it sent, and times out saying so', async () => {
    const { server, store } = await setup()
    const login = loginToServer(
      'remote',
      { url: server.url },
      {
        store,
        timeoutMs: 300,
        open: async (u) => {
          const page = await fetch(u, { redirect: 'manual' })
          const back = new URL(page.headers.get('location')!)
          back.searchParams.set('state', 'forged')
          const answer = await fetch(back)
          expect(answer.status).toBe(400)
        },
      },
    )
    await expect(login).rejects.toThrow(/timed out/)
    expect(store.hasTokens(server.url)).toBe(false)
  })
})
