/**
 * Which authorization server answered a login (RFC 9207 `iss`, spec 2026-07-28): a code is
 * exchanged only when the answer names the server Cairn asked; an answer that names another
 * is refused before any token request, and its words are not shown. Dynamic registration
 * says what kind of application Cairn is (`application_type: native`).
 */
import { describe, expect, it } from 'vitest'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import { follow, tempDir, useCleanups } from '../support/oauth-client'
import { startOAuthServer, type OAuthServerOptions } from '../support/oauth-server'

const cleanup = useCleanups()

async function login(o: OAuthServerOptions) {
  const server = await startOAuthServer({ challengeScope: 'read', ...o })
  cleanup(() => server.close())
  const store = new McpAuthStore(openSecrets(tempDir('cairn-iss-', cleanup)))
  const done = loginToServer('remote', { url: server.url }, { store, open: follow })
  const tokenRequests = (): number => server.requests.filter((r) => r.path === '/token').length
  return { server, store, done, tokenRequests }
}

describe("the authorization server's answer", () => {
  it('naming the server Cairn asked: the code is exchanged', async () => {
    const { server, store, done, tokenRequests } = await login({ iss: true })
    await done
    expect(tokenRequests()).toBe(1)
    expect(store.hasTokens(server.url)).toBe(true)
  })

  it('naming another server: refused before any token request', async () => {
    const { server, store, done, tokenRequests } = await login({ iss: 'https://evil.example' })
    await expect(done).rejects.toThrow(/answered by another authorization server/)
    expect(tokenRequests()).toBe(0)
    expect(store.hasTokens(server.url)).toBe(false)
  })

  it("a refusal is told in the server's words when it came from the server asked", async () => {
    const { done } = await login({ iss: true, refuse: 'access_denied' })
    await expect(done).rejects.toThrow(
      'The authorization server refused the login: access_denied (the page says no).',
    )
  })

  it('a refusal from another server is not told in its words', async () => {
    const { done } = await login({ iss: 'https://evil.example', refuse: 'access_denied' })
    const e = (await done.catch((x: unknown) => x)) as Error
    expect(e.message).toMatch(/answered by another authorization server/)
    expect(e.message).not.toMatch(/page says no|access_denied/)
  })
})

describe('dynamic client registration', () => {
  it('says Cairn is a native application, with its loopback address', async () => {
    const { server, done } = await login({})
    await done
    const registration = server.requests.find((r) => r.path === '/register')
    const body = JSON.parse(registration?.body ?? '{}') as Record<string, unknown>
    expect(body['application_type']).toBe('native')
    expect(body['redirect_uris']).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
    ])
  })
})
