/**
 * Logs in to a remote MCP server: asks the server what it needs (its 401's
 * `WWW-Authenticate`: the resource metadata address and the scope; else what its last 401
 * to the connection said), lets the SDK's
 * `auth()` discover the authorization server and register a client (or use the configured
 * one), opens the browser at the authorization address (PKCE S256, `state`, `resource`),
 * waits for the code on a loopback address, and exchanges it for tokens, which go to the
 * secrets store under the server's URL.
 */
import {
  auth,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  validateAuthorizationResponseIssuer,
  type FetchLike,
} from '@modelcontextprotocol/client'
import type { HttpServerConfig, McpLogins } from '../../core/mcp-ports'
import { withClientMetadata } from './client-metadata'
import { AnswerTooLarge, cappedFetch } from './http-limits'
import {
  DEFAULT_LOGIN_TIMEOUT_MS,
  LoginError,
  LoginRefused,
  startCallbackServer,
} from './oauth-callback'
import { CairnOAuthProvider } from './oauth-provider'
import {
  forgetUnusedLogin,
  McpAuthStore,
  moveClientSecret,
  type McpAuthSecrets,
} from './oauth-store'

export interface LoginOptions {
  store: McpAuthStore
  /** opens the authorization address (the browser opener, or the desktop app's shell) */
  open(authorizationUrl: URL): void | Promise<void>
  timeoutMs?: number
  clientVersion?: string
  /** the settings' address of Cairn's client metadata document (null: register instead) */
  clientMetadataUrl?: string | null
}

/** What the server's 401 says: where its resource metadata is, and the scope it needs. */
async function probe(
  config: HttpServerConfig,
  clientVersion: string,
  fetchFn: FetchLike,
): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  }
  for (const [k, v] of Object.entries(config.headers ?? {}))
    if (k.toLowerCase() !== 'authorization') headers[k] = v
  try {
    const res = await fetchFn(config.url, {
      method: 'POST',
      headers,
      redirect: 'manual',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'cairn', version: clientVersion },
        },
      }),
    })
    await res.body?.cancel().catch(() => {})
    if (res.status !== 401 && res.status !== 403) return {}
    const p = extractWWWAuthenticateParams(res)
    return {
      ...(p.resourceMetadataUrl ? { resourceMetadataUrl: p.resourceMetadataUrl } : {}),
      ...(p.scope ? { scope: p.scope } : {}),
    }
  } catch {
    // the SDK's discovery says what is wrong with the server
    return {}
  }
}

export async function loginToServer(
  name: string,
  config: HttpServerConfig,
  opts: LoginOptions,
): Promise<void> {
  const callback = await startCallbackServer({
    timeoutMs: opts.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS,
    serverName: name,
  })
  const client = withClientMetadata(config.oauth, opts.clientMetadataUrl)
  try {
    const provider = new CairnOAuthProvider({
      serverUrl: config.url,
      store: opts.store,
      ...(client ? { client } : {}),
      interactive: { redirectUrl: callback.redirectUrl, open: (u) => opts.open(u) },
    })
    callback.expectState(() => provider.sentState)
    // every answer read is capped (http-limits.ts): metadata, registration, tokens
    let cut: AnswerTooLarge | undefined
    const fetchFn = cappedFetch(config.url, fetch, (e) => (cut ??= e))
    const found = await probe(config, opts.clientVersion ?? 'dev', fetchFn)
    // a server that lets anyone initialize answers the probe without a 401: what its 401 to
    // the connection said stands in
    const seen = provider.lastChallenge()
    const challengeScope = found.scope ?? seen?.scope
    const resourceMetadataUrl =
      found.resourceMetadataUrl ??
      (seen?.resourceMetadataUrl ? new URL(seen.resourceMetadataUrl) : undefined)
    // a step-up asks for what the last login had, what the server's refusal named and what
    // its 401 says, all together (SEP-2350: a new login does not lose a permission)
    const words = [provider.lastLoginScope(), provider.pendingScope(), challengeScope]
      .join(' ')
      .split(/\s+/)
    const scope = [...new Set(words.filter(Boolean))].join(' ') || undefined
    const params = {
      serverUrl: config.url,
      fetchFn,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
    }
    // a login asks the user again: old tokens could not carry a larger scope
    provider.invalidateCredentials('tokens')
    const first = await auth(provider, params).catch((e: unknown) => {
      // the SDK's discovery goes on past a document it could not read: say it was cut
      if (cut && !(e instanceof AnswerTooLarge))
        throw new Error(`${cut.message} ${e instanceof Error ? e.message : String(e)}`)
      throw e
    })
    if (first === 'AUTHORIZED') return
    const answer = await callback.waitForCode().catch((e: unknown) => {
      throw e instanceof LoginRefused ? refusal(e, provider) : e
    })
    // the code is exchanged only if `iss` names the authorization server asked (RFC 9207)
    const second = await auth(provider, {
      ...params,
      authorizationCode: answer.code,
      ...(answer.iss !== undefined ? { iss: answer.iss } : {}),
    }).catch((e: unknown) => {
      throw e instanceof IssuerMismatchError ? new Error(MIX_UP) : e
    })
    if (second !== 'AUTHORIZED')
      throw new Error(`The login to "${name}" did not give Cairn a token.`)
  } finally {
    callback.close()
  }
}

/** Logins and client secrets over the secrets store, as the services' port. */
export function mcpLogins(
  secrets: McpAuthSecrets,
  clientVersion: string,
  clientMetadataUrl: () => string | null,
): McpLogins {
  const store = new McpAuthStore(secrets)
  return {
    login: (name, config, open) =>
      loginToServer(name, config, {
        store,
        clientVersion,
        open,
        clientMetadataUrl: clientMetadataUrl(),
      }),
    logout: (serverUrl) => void store.logout(serverUrl),
    keepClientSecret: (entry) => moveClientSecret(entry, store),
    forgetUnusedLogin: (removed, remaining) => forgetUnusedLogin(removed, remaining, secrets),
  }
}

const MIX_UP =
  'The login was answered by another authorization server than the one Cairn asked (its "iss" does not match); nothing was accepted from it.'

/**
 * What a refused login tells the user: the authorization server's own words only when the
 * answer's `iss` matches the server Cairn asked; otherwise someone else answered.
 */
function refusal(e: LoginRefused, provider: CairnOAuthProvider): LoginError {
  const metadata = provider.discoveryState()?.authorizationServerMetadata
  try {
    validateAuthorizationResponseIssuer({
      iss: e.iss,
      expectedIssuer: metadata?.issuer,
      issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
    })
  } catch {
    return new LoginError(MIX_UP)
  }
  return new LoginError(e.serversWords())
}
