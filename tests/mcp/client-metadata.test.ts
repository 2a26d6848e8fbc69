/**
 * Cairn's OAuth client ID metadata document: the one this repository publishes is a valid
 * document whose client id is its own address and whose redirect is Cairn's loopback
 * callback; a login uses its address (or the settings' other one) with an authorization
 * server that supports such documents, and registers itself when told to or when the
 * server does not; a server's own client stays its own.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/core'
import { describe, expect, it } from 'vitest'
import { CAIRN_CLIENT_METADATA_URL } from '../../src-main/adapters/mcp/client-metadata'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import { defaultSettings } from '../../src-main/adapters/settings/schema'
import type { HttpServerConfig } from '../../src-main/core/mcp-ports'
import { follow, tempDir, useCleanups } from '../support/oauth-client'
import { startOAuthServer, type OAuthServerOptions } from '../support/oauth-server'

const cleanup = useCleanups()

describe('the published document', () => {
  const doc = JSON.parse(
    readFileSync(join(process.cwd(), 'docs', 'oauth', 'client-metadata.json'), 'utf8'),
  ) as Record<string, unknown>

  it('is a client metadata document whose client id is the address Cairn uses by default', () => {
    expect(OAuthClientMetadataSchema.safeParse(doc).success).toBe(true)
    expect(doc['client_id']).toBe(CAIRN_CLIENT_METADATA_URL)
    expect(defaultSettings().mcp.clientMetadataUrl).toBe(CAIRN_CLIENT_METADATA_URL)
    expect(new URL(CAIRN_CLIENT_METADATA_URL).protocol).toBe('https:')
  })

  it("names Cairn's loopback callback (any port) as a public native client", () => {
    expect(doc['redirect_uris']).toEqual(['http://127.0.0.1/callback'])
    expect(doc['token_endpoint_auth_method']).toBe('none')
    expect(doc['application_type']).toBe('native')
    expect(doc['grant_types']).toEqual(['authorization_code', 'refresh_token'])
  })
})

describe('the client a login uses', () => {
  async function login(
    o: OAuthServerOptions,
    config: Partial<HttpServerConfig>,
    url: string | null,
  ) {
    const server = await startOAuthServer({ challengeScope: 'read', ...o })
    cleanup(() => server.close())
    const store = new McpAuthStore(openSecrets(tempDir('cairn-cimd-', cleanup)))
    await loginToServer(
      'remote',
      { url: server.url, ...config },
      { store, open: follow, clientMetadataUrl: url },
    )
    const authorize = server.requests.find((r) => r.path === '/authorize')
    return {
      clientId: authorize?.query.get('client_id'),
      registered: server.requests.some((r) => r.path === '/register'),
    }
  }

  it("is Cairn's document where the server supports such documents", async () => {
    const r = await login({ cimd: true }, {}, CAIRN_CLIENT_METADATA_URL)
    expect(r).toEqual({ clientId: CAIRN_CLIENT_METADATA_URL, registered: false })
  })

  it('is the address the settings give instead', async () => {
    const r = await login({ cimd: true }, {}, 'https://me.example/cairn.json')
    expect(r).toEqual({ clientId: 'https://me.example/cairn.json', registered: false })
  })

  it('is registered when the settings say so, or when the server does not support documents', async () => {
    expect((await login({ cimd: true }, {}, null)).registered).toBe(true)
    expect((await login({}, {}, CAIRN_CLIENT_METADATA_URL)).registered).toBe(true)
  })

  it("is a server's own configured client, whatever the settings", async () => {
    const r = await login(
      {
        cimd: true,
        clients: { mine: { secret: 's3', method: 'client_secret_basic' } },
        authMethods: ['client_secret_basic'],
      },
      { oauth: { clientId: 'mine', clientSecret: 's3' } },
      CAIRN_CLIENT_METADATA_URL,
    )
    expect(r).toEqual({ clientId: 'mine', registered: false })
  })
})
