/**
 * Where a remote server's login is kept: the secrets store, encrypted by the host's codec,
 * known to the turn logs' redaction; and the fetch a protected connection uses, which
 * never hands the server's token to another origin.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { guardedFetch } from '../../src-main/adapters/mcp/oauth-connection'
import { CairnOAuthProvider } from '../../src-main/adapters/mcp/oauth-provider'
import {
  forgetUnusedLogin,
  McpAuthStore,
  moveClientSecret,
} from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets, type SecretCodec } from '../../src-main/adapters/settings/secrets'

const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-oauth-store-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** a stand-in for safeStorage: reversible, and nothing readable in the file */
const codec: SecretCodec = {
  encrypt: (s) => `safe:${Buffer.from(s).toString('base64')}`,
  decrypt: (s) => Buffer.from(s.slice(5), 'base64').toString(),
}

const url = 'https://mcp.example.com/mcp'

describe('the MCP login store', () => {
  it('keeps tokens encrypted by the codec, per server URL, and tells the redaction about them', () => {
    const dir = tempDir()
    const secrets = openSecrets(dir, { codec })
    const store = new McpAuthStore(secrets)
    store.update(url, (s) => ({
      ...s,
      tokens: {
        access_token: 'access-123456',
        token_type: 'Bearer',
        refresh_token: 'refresh-abcdef',
      },
      client: { client_id: 'client-1', client_secret: 'dcr-secret-xyz' },
    }))
    const file = readFileSync(join(dir, 'secrets.json'), 'utf8')
    for (const s of ['access-123456', 'refresh-abcdef', 'dcr-secret-xyz'])
      expect(file).not.toContain(s)
    // a restarted app reads them back
    const again = new McpAuthStore(openSecrets(dir, { codec }))
    expect(again.read(url).tokens?.access_token).toBe('access-123456')
    expect(again.read('https://other.example.com/mcp')).toEqual({})
    expect(secrets.allKeys()).toEqual(
      expect.arrayContaining(['access-123456', 'refresh-abcdef', 'dcr-secret-xyz']),
    )
    expect(secrets.allKeys()).not.toContain('Bearer')
    expect(secrets.allKeys()).not.toContain('client-1')
  })

  it("logout forgets tokens and the registration, but not a configured client's secret", () => {
    const store = new McpAuthStore(openSecrets(tempDir()))
    const entry = moveClientSecret({ url, oauth: { clientId: 'app', clientSecret: 'cs-1' } }, store)
    expect(entry).toEqual({ url, oauth: { clientId: 'app' } })
    store.update(url, (s) => ({ ...s, tokens: { access_token: 'a-1', token_type: 'Bearer' } }))
    expect(store.logout(url)).toBe(true)
    expect(store.read(url)).toEqual({ clientSecret: 'cs-1' })
    expect(store.logout(url)).toBe(false)
  })
})

describe('removing a server', () => {
  it('forgets its login, unless another server has the same URL', () => {
    const secrets = openSecrets(tempDir())
    const store = new McpAuthStore(secrets)
    store.update(url, () => ({ tokens: { access_token: 'a-1', token_type: 'Bearer' } }))
    forgetUnusedLogin({ url }, { twin: { url: `${url}#x` } }, secrets)
    expect(store.hasTokens(url)).toBe(true)
    forgetUnusedLogin({ url }, { other: { url: 'https://other.example/mcp' } }, secrets)
    expect(store.read(url)).toEqual({})
    expect(secrets.allKeys()).not.toContain('a-1')
  })
})

describe('the fetch of a protected connection', () => {
  async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
    const seen: IncomingHttpHeaders[] = []
    const server = createServer((req, res) => {
      seen.push(req.headers)
      res.end('{}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())))
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen }
  }

  it('sends the token to its own origin only', async () => {
    const own = await recorder()
    const other = await recorder()
    const store = new McpAuthStore(openSecrets(tempDir()))
    store.update(own.url, () => ({
      tokens: { access_token: 'tok-own-origin', token_type: 'Bearer' },
    }))
    const provider = new CairnOAuthProvider({ serverUrl: own.url, store })
    const f = guardedFetch(own.url, provider, fetch)
    const headers = { authorization: 'Bearer tok-own-origin', 'x-other': '1' }
    await f(own.url, { headers })
    await f(other.url, { headers })
    expect(own.seen[0]?.authorization).toBe('Bearer tok-own-origin')
    expect(other.seen[0]?.authorization).toBeUndefined()
    expect(other.seen[0]?.['x-other']).toBe('1')
  })
})
