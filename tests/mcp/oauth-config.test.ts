/** A URL server's `oauth` entry in the Claude Desktop-format configuration. */
import { describe, expect, it } from 'vitest'
import { parseServerConfig } from '../../src-main/adapters/mcp/config'

describe('the oauth entry of a URL server', () => {
  it('takes a client id, secret, scopes and a client metadata document address, all optional', () => {
    const oauth = {
      clientId: 'app',
      clientSecret: 's',
      scopes: ['repo', 'read:org'],
      clientMetadataUrl: 'https://example.org/cairn/client.json',
    }
    expect(parseServerConfig('gh', { url: 'https://x.example/mcp', oauth })).toEqual({
      url: 'https://x.example/mcp',
      oauth,
    })
    expect(parseServerConfig('gh', { url: 'https://x.example/mcp', oauth: {} })).toEqual({
      url: 'https://x.example/mcp',
      oauth: {},
    })
  })

  it('refuses what cannot be right, naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [[], /oauth must be an object/],
      [{ clientId: '' }, /oauth\.clientId must be a non-empty string/],
      [{ scopes: 'repo' }, /oauth\.scopes must be a list/],
      [{ scopes: ['two words'] }, /oauth\.scopes must be a list/],
      [{ clientMetadataUrl: 'http://example.org/c.json' }, /clientMetadataUrl must be an https/],
      [{ clientMetadataUrl: 'https://example.org/' }, /clientMetadataUrl must be an https/],
    ]
    for (const [oauth, message] of bad)
      expect(() => parseServerConfig('gh', { url: 'https://x.example/mcp', oauth })).toThrow(
        message,
      )
  })
})
