/**
 * What a remote server's connection needs for OAuth: a background provider (it refreshes
 * tokens but never opens a browser) for the Streamable HTTP and SSE transports, and telling
 * "this server needs a login" apart from other failures, so the user is sent to log in
 * instead of seeing a failed call.
 */
import {
  extractWWWAuthenticateParams,
  InsufficientScopeError,
  OAuthError,
  OAuthErrorCode,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
  type FetchLike,
} from '@modelcontextprotocol/client'
import type { HttpServerConfig } from '../../core/mcp-ports'
import { withClientMetadata } from './client-metadata'
import { CairnOAuthProvider, LoginNeededError } from './oauth-provider'
import type { McpAuthStore } from './oauth-store'

export function backgroundProvider(
  config: HttpServerConfig,
  store: McpAuthStore | undefined,
  clientMetadataUrl?: string | null,
): CairnOAuthProvider | undefined {
  if (!store) return undefined
  const client = withClientMetadata(config.oauth, clientMetadataUrl)
  return new CairnOAuthProvider({ serverUrl: config.url, store, ...(client ? { client } : {}) })
}

/** True when `e` (or what caused it) means the server wants a (new) login. */
export function needsLogin(e: unknown, provider: CairnOAuthProvider | undefined): boolean {
  if (!provider) return false
  // a login already asked for what the server refuses: another one would not help
  if (scopeRefusal(e, provider)) return false
  if (provider.loginNeeded) return true
  for (let x: unknown = e, depth = 0; x && depth < 5; depth++) {
    if (
      x instanceof UnauthorizedError ||
      x instanceof LoginNeededError ||
      x instanceof InsufficientScopeError ||
      (x instanceof OAuthError &&
        (x.code === OAuthErrorCode.InvalidGrant || x.code === OAuthErrorCode.InvalidToken))
    )
      return true
    // the transport's own code for a 401 that a fresh token did not cure, or a 403 for scope
    if (
      x instanceof SdkHttpError &&
      (x.code === SdkErrorCode.ClientHttpAuthentication ||
        x.code === SdkErrorCode.ClientHttpForbidden)
    )
      return true
    x = (x as { cause?: unknown }).cause
  }
  return false
}

export function loginMessage(name: string, scope?: string): string {
  const more = scope ? ` (it asks for the permission "${scope}")` : ''
  return `The server "${name}" needs you to log in${more}: use "Log in" in Settings › MCP servers, or run \`cairn mcp login ${name}\`.`
}

/**
 * The scope the server refused although the login asked for it, when that is what `e`
 * (a request's failure: the SDK's UnauthorizedError or its 403) comes from; else null.
 */
export function scopeRefusal(e: unknown, provider: CairnOAuthProvider | undefined): string | null {
  const scope = provider?.refusedScope
  if (!scope) return null
  for (let x: unknown = e, depth = 0; x && depth < 5; depth++) {
    if (x instanceof UnauthorizedError || x instanceof InsufficientScopeError) return scope
    if (x instanceof SdkHttpError && x.status === 403) return scope
    x = (x as { cause?: unknown }).cause
  }
  return null
}

/** The server refused the token for a scope the login already asked for. */
export function scopeRefusedMessage(name: string, scope: string): string {
  return `The server "${name}" refused Cairn's token for lack of the permission "${scope}", which your login already asked for; logging in again would not change that (your account may not have that permission on the server).`
}

/**
 * The fetch the transports use for a server with a login: a token goes only to the origin
 * it was issued for (a request elsewhere loses its Authorization header), what a 401 says
 * (resource metadata address, scope) is kept for the next login, and a 403
 * `insufficient_scope` is remembered, so the next login asks for that scope, unless the
 * login that got the token already asked for it: then the server refuses what a login can
 * give, and no login is asked for (the connection says so instead of looping).
 */
export function guardedFetch(
  serverUrl: string,
  provider: CairnOAuthProvider,
  inner: FetchLike,
): FetchLike {
  const origin = new URL(serverUrl).origin
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    let sent = init
    if (url.origin !== origin && init?.headers) {
      const headers = new Headers(init.headers)
      const token = provider.tokens()?.access_token
      if (token && headers.get('authorization') === `Bearer ${token}`) {
        headers.delete('authorization')
        sent = { ...init, headers }
      }
    }
    const res = await inner(input, sent)
    if (res.status === 401 && url.origin === origin) {
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(res)
      provider.rememberChallenge({
        ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
        ...(scope ? { scope } : {}),
      })
    }
    if (res.status === 403 && url.origin === origin) {
      const { error, scope } = extractWWWAuthenticateParams(res)
      if (error === 'insufficient_scope' && scope) {
        if (provider.alreadyAskedFor(scope)) provider.refusedScope = scope
        else provider.rememberScope(scope)
      }
    }
    return res
  }
}
