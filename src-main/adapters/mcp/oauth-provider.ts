/**
 * Cairn's OAuthClientProvider for one remote MCP server, for the MCP SDK's `auth()`
 * (discovery, registration, PKCE S256, the `resource` parameter, refresh, step-up).
 *
 * Two modes. In the background (a connection starting or calling a tool) it never opens a
 * browser: when the SDK would send the user to log in, it notes that a login is needed
 * (and the scope asked for) and the connection says "needs login". During a login
 * (`interactive`) it hands the authorization URL to the opener and checks `state` when
 * the code comes back.
 */
import { randomBytes } from 'node:crypto'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client'
import type { OAuthClientConfig } from '../../core/mcp-ports'
import type { McpAuthStore } from './oauth-store'
import { ExpectedError } from '../../core/errors'

/** a redirect URI for the background mode, which never receives a code */
const NO_REDIRECT = 'http://127.0.0.1/callback'

export interface ProviderOptions {
  serverUrl: string
  store: McpAuthStore
  /** the client configured in the server's entry */
  client?: OAuthClientConfig
  /** a login in progress: where the code comes back, and what opens the browser */
  interactive?: { redirectUrl: string; open(authorizationUrl: URL): void | Promise<void> }
}

export class CairnOAuthProvider implements OAuthClientProvider {
  /** set when the SDK wanted the user to log in (background mode) */
  loginNeeded = false
  /**
   * set when the server refused the token for a scope the last login already asked for
   * (`insufficient_scope` again): another login would not help, so none is asked for
   */
  refusedScope: string | null = null
  /** the scope this login's authorization request asked for ('' for none) */
  private askedScope: string | null = null
  private verifier: string | null = null
  private expectedState: string | null = null
  private discovery: OAuthDiscoveryState | undefined

  constructor(private readonly o: ProviderOptions) {}

  get redirectUrl(): string {
    return this.o.interactive?.redirectUrl ?? this.registered()?.redirect_uris?.[0] ?? NO_REDIRECT
  }

  /** a client ID metadata document's address (configured), used where the server supports it */
  get clientMetadataUrl(): string | undefined {
    return this.o.client?.clientMetadataUrl
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.o.client?.scopes
    return {
      client_name: 'Cairn',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    }
  }

  /** the `state` sent with the authorization request, for the callback to check */
  state(): string {
    this.expectedState = randomBytes(24).toString('base64url')
    return this.expectedState
  }

  get sentState(): string | null {
    return this.expectedState
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const configured = this.o.client?.clientId
    if (configured) {
      const secret = this.o.client?.clientSecret ?? this.o.store.read(this.o.serverUrl).clientSecret
      return { client_id: configured, ...(secret ? { client_secret: secret } : {}) }
    }
    const client = this.registered()
    if (!this.o.interactive && !client && !this.tokens()) {
      // nothing to refresh and no one to ask: do not register a client nobody will use
      this.loginNeeded = true
      throw new LoginNeededError()
    }
    // a client registered for another loopback port cannot receive this login's code
    // (a client ID metadata document's client lists no redirect URIs here: it is kept)
    const uris = client?.redirect_uris
    if (client && this.o.interactive && uris && !uris.includes(this.redirectUrl)) return undefined
    return client
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    // a configured client stays in the configuration; only a registered one is stored
    if (this.o.client?.clientId) return
    this.o.store.update(this.o.serverUrl, (s) => ({ ...s, client: info }))
  }

  tokens(): OAuthTokens | undefined {
    return this.o.store.read(this.o.serverUrl).tokens
  }

  saveTokens(tokens: OAuthTokens): void {
    // a login's tokens remember the scope it asked for; a refresh keeps what was there
    const asked = this.o.interactive ? this.askedScope : null
    this.o.store.update(this.o.serverUrl, (s) => {
      const { scope: _asked, ...rest } = s
      void _asked
      // a login has answered the last 401
      if (asked !== null) delete rest.challenge
      return { ...rest, tokens, ...(asked !== null ? { loginScope: asked } : {}) }
    })
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.o.interactive) {
      this.askedScope = authorizationUrl.searchParams.get('scope') ?? ''
      await this.o.interactive.open(authorizationUrl)
      return
    }
    // the server refused what a login already asked for: logging in again would loop
    if (this.refusedScope !== null) return
    this.loginNeeded = true
    const scope = authorizationUrl.searchParams.get('scope')
    this.o.store.update(this.o.serverUrl, (s) => ({ ...s, ...(scope ? { scope } : {}) }))
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no login is in progress (no PKCE code verifier)')
    return this.verifier
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.verifier = null
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined
    if (scope === 'verifier' || scope === 'discovery') return
    this.o.store.update(this.o.serverUrl, (s) => {
      const next = { ...s }
      if (scope === 'all' || scope === 'tokens') {
        delete next.tokens
        delete next.loginScope
      }
      if (scope === 'all' || scope === 'client') delete next.client
      return next
    })
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery
  }

  /** a scope the server said it needs (`insufficient_scope`), for the next login */
  rememberScope(scope: string): void {
    this.o.store.update(this.o.serverUrl, (s) => ({ ...s, scope }))
  }

  /** the scope the login that got the current tokens asked for ('' when none) */
  lastLoginScope(): string {
    const stored = this.o.store.read(this.o.serverUrl)
    return stored.tokens ? (stored.loginScope ?? stored.tokens.scope ?? '') : ''
  }

  /** the scope a step-up asked for, to ask for at the next login */
  pendingScope(): string | undefined {
    return this.o.store.read(this.o.serverUrl).scope
  }

  /** what the server's 401 said (from its own origin), for the next login */
  rememberChallenge(challenge: { resourceMetadataUrl?: string; scope?: string }): void {
    const before = this.o.store.read(this.o.serverUrl).challenge
    if (JSON.stringify(before ?? {}) === JSON.stringify(challenge)) return
    this.o.store.update(this.o.serverUrl, (s) => ({ ...s, challenge }))
  }

  lastChallenge(): { resourceMetadataUrl?: string; scope?: string } | undefined {
    return this.o.store.read(this.o.serverUrl).challenge
  }

  /** whether the login that got the current tokens already asked for every word of `scope` */
  alreadyAskedFor(scope: string): boolean {
    const stored = this.o.store.read(this.o.serverUrl)
    if (!stored.tokens || stored.loginScope === undefined) return false
    const had = new Set(stored.loginScope.split(/\s+/).filter(Boolean))
    const wanted = scope.split(/\s+/).filter(Boolean)
    return wanted.length > 0 && wanted.every((w) => had.has(w))
  }

  private registered(): (OAuthClientInformationMixed & { redirect_uris?: string[] }) | undefined {
    return this.o.store.read(this.o.serverUrl).client as
      (OAuthClientInformationMixed & { redirect_uris?: string[] }) | undefined
  }
}

/** The server wants a login and none can happen now (a background connection). */
export class LoginNeededError extends ExpectedError<'unavailable'> {
  constructor() {
    super('unavailable', 'this server needs you to log in')
    this.name = 'LoginNeededError'
  }
}
