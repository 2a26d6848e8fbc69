/**
 * A remote MCP server's OAuth state, kept in the secrets store (0600; encrypted with the
 * system keychain in the desktop app) under the server's URL: its tokens, the client it
 * registered, the secret of a pre-registered client, and the scope a step-up asked for.
 * Tokens are bound to the URL they were obtained for: a server whose URL changes logs in again.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client'

/** What the secrets store offers for this (a subset of SecretsStore). */
export interface McpAuthSecrets {
  getMcpAuth(serverUrl: string): string | undefined
  setMcpAuth(serverUrl: string, json: string | null): void
}

export interface StoredMcpAuth {
  /** as the SDK saved them (they carry the issuer they were obtained from) */
  tokens?: OAuthTokens & { issuer?: string }
  /** a dynamically registered client (with its issuer) */
  client?: OAuthClientInformationMixed & { issuer?: string }
  /** the secret of the client configured in the server's `oauth` entry */
  clientSecret?: string
  /** the scope the server asked for last (`insufficient_scope`), asked for at the next login */
  scope?: string
  /**
   * the scope the login that got `tokens` asked for ('' when it asked for none; absent for
   * tokens saved before this was kept): a server that still says `insufficient_scope` for
   * scopes in it would not be satisfied by another login
   */
  loginScope?: string
  /**
   * what the server's last 401 said (its resource metadata address and scope), for the next
   * login: a server that lets anyone initialize answers a login's probe without one
   */
  challenge?: { resourceMetadataUrl?: string; scope?: string }
}

/** The key a server's state is stored under: its URL without a fragment. */
export function authKey(serverUrl: string): string {
  const u = new URL(serverUrl)
  u.hash = ''
  return u.href
}

export class McpAuthStore {
  constructor(private readonly secrets: McpAuthSecrets) {}

  read(serverUrl: string): StoredMcpAuth {
    const text = this.secrets.getMcpAuth(authKey(serverUrl))
    if (!text) return {}
    try {
      const v = JSON.parse(text) as unknown
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as StoredMcpAuth) : {}
    } catch {
      return {}
    }
  }

  update(serverUrl: string, change: (s: StoredMcpAuth) => StoredMcpAuth): void {
    const next = change({ ...this.read(serverUrl) })
    const empty = Object.values(next).every((v) => v === undefined)
    this.secrets.setMcpAuth(authKey(serverUrl), empty ? null : JSON.stringify(next))
  }

  /** Forgets the tokens and the registered client; a configured client's secret stays. */
  logout(serverUrl: string): boolean {
    const had = this.read(serverUrl).tokens !== undefined
    this.update(serverUrl, (s) => ({ ...(s.clientSecret ? { clientSecret: s.clientSecret } : {}) }))
    return had
  }

  hasTokens(serverUrl: string): boolean {
    return this.read(serverUrl).tokens !== undefined
  }
}

/**
 * A configured client's secret does not stay in the settings: it moves to the secrets
 * store (under the server's URL) and the entry keeps the client's id and scopes only.
 * Returns the entry to save.
 */
export function moveClientSecret(
  entry: Record<string, unknown>,
  store: McpAuthStore,
): Record<string, unknown> {
  const oauth = entry['oauth'] as Record<string, unknown> | undefined
  const secret = oauth?.['clientSecret']
  if (typeof entry['url'] !== 'string' || typeof secret !== 'string') return entry
  store.update(entry['url'], (s) => ({ ...s, clientSecret: secret }))
  const { clientSecret: _moved, ...rest } = oauth as Record<string, unknown>
  void _moved
  return { ...entry, oauth: rest }
}

/** A removed server's login is forgotten, unless another configured server has its URL. */
export function forgetUnusedLogin(
  removed: Record<string, unknown> | undefined,
  remaining: Record<string, Record<string, unknown>>,
  secrets: McpAuthSecrets,
): void {
  const url = removed?.['url']
  if (typeof url !== 'string') return
  let key: string
  try {
    key = authKey(url)
  } catch {
    return
  }
  const used = Object.values(remaining).some((e) => {
    try {
      return typeof e['url'] === 'string' && authKey(e['url']) === key
    } catch {
      return false
    }
  })
  if (!used) secrets.setMcpAuth(key, null)
}
