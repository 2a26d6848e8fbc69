/**
 * A scripted OAuth authorization server and an MCP server it protects, on 127.0.0.1, for
 * the login tests. It checks what a real one would (PKCE S256, redirect URI, `resource`,
 * client authentication, refresh tokens, scopes) and records every request, so tests can
 * assert what Cairn sent. The authorization page approves at once (302 to the redirect URI).
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sseEndpoint } from './oauth-sse'

export interface OAuthServerOptions {
  /** the scope the 401 names (default none) */
  challengeScope?: string
  scopesSupported?: string[]
  /** a tool named `admin` needs this scope (403 insufficient_scope otherwise) */
  adminScope?: string
  /** `tools/list` needs this scope (403 insufficient_scope otherwise) */
  listScope?: string
  /** scopes never granted, whatever is asked (the account does not have them) */
  withhold?: string[]
  /** `initialize` (and notifications) need no token: the 401 comes with `tools/list` */
  openInitialize?: boolean
  /** serve the AS metadata at the OpenID path only */
  openIdOnly?: boolean
  /** no resource_metadata in WWW-Authenticate: the client must try the well-known path */
  noResourceMetadataHint?: boolean
  /**
   * a 2025-03-26 server: no protected resource metadata (the authorization server is the MCP
   * server's origin, and no `resource` is expected); `'bare'` serves no metadata at all either,
   * leaving the default endpoints (/authorize, /token, /register)
   */
  legacy?: true | 'bare'
  /** an older server: the legacy SSE transport only (GET /mcp, POST /messages) */
  sse?: boolean
  /** supports client ID metadata documents (an https client_id is a public client) */
  cimd?: boolean
  /** no dynamic client registration */
  noRegistration?: boolean
  /** pre-registered clients: id → secret and how it must authenticate */
  clients?: Record<string, { secret: string; method: 'client_secret_basic' | 'client_secret_post' }>
  authMethods?: string[]
  /** the authorization endpoint the metadata names (default `<origin>/authorize`): a hostile one */
  authorizationEndpoint?: string
  /**
   * RFC 9207: the metadata says the answer carries `iss`, and it does: this server's issuer,
   * or (a mix-up) the one given here
   */
  iss?: true | string
  /** the authorization page refuses: the answer carries this `error` (and a description) */
  refuse?: string
}

export interface Recorded {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: string
}

interface Client {
  redirectUris: string[]
  secret?: string
  method: string
}

export interface OAuthServer {
  /** the MCP endpoint */
  url: string
  origin: string
  requests: Recorded[]
  /** access tokens issued so far (newest last) */
  issued: string[]
  refreshIssued: string[]
  /** invalidates every access and refresh token */
  revokeAll(): void
  /** invalidates the access tokens only (a refresh still works) */
  expireAccess(): void
  close(): Promise<void>
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('base64url')
const token = (): string => randomBytes(18).toString('base64url')

export async function startOAuthServer(o: OAuthServerOptions = {}): Promise<OAuthServer> {
  const requests: Recorded[] = []
  const sse = o.sse ? sseEndpoint() : null
  const clients = new Map<string, Client>()
  for (const [id, c] of Object.entries(o.clients ?? {}))
    clients.set(id, { redirectUris: [], secret: c.secret, method: c.method })
  const codes = new Map<
    string,
    { clientId: string; challenge: string; redirectUri: string; scope: string; resource: string }
  >()
  const access = new Map<string, { scope: string }>()
  const refresh = new Map<string, { clientId: string; scope: string }>()
  const issued: string[] = []
  const refreshIssued: string[] = []
  let origin = ''
  const mcpUrl = (): string => `${origin}/mcp`

  const resourceOk = (r: string | null): boolean => (o.legacy ? r === null : r === mcpUrl())
  const json = (res: ServerResponse, status: number, body: unknown, headers = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
  const challenge = (res: ServerResponse, status: number, extra = ''): void => {
    const parts = ['Bearer']
    const params: string[] = []
    if (extra) params.push(extra)
    if (!o.noResourceMetadataHint && !o.legacy)
      params.push(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`)
    if (o.challengeScope && !extra) params.push(`scope="${o.challengeScope}"`)
    json(
      res,
      status,
      { error: 'unauthorized' },
      {
        'www-authenticate': `${parts[0]} ${params.join(', ')}`,
      },
    )
  }

  /** a client known by its metadata document's address (this server does not fetch it) */
  const known = (id: string): Client | undefined =>
    clients.get(id) ??
    (o.cimd && id.startsWith('https://') ? { redirectUris: [], method: 'none' } : undefined)
  const clientAuth = (req: IncomingMessage, form: URLSearchParams): string | null => {
    const basic = req.headers.authorization
    let id = form.get('client_id')
    let secret: string | null = form.get('client_secret')
    let method = secret ? 'client_secret_post' : 'none'
    if (basic?.startsWith('Basic ')) {
      const [i, s] = Buffer.from(basic.slice(6), 'base64').toString().split(':')
      id = decodeURIComponent(i ?? '')
      secret = decodeURIComponent(s ?? '')
      method = 'client_secret_basic'
    }
    const c = id ? known(id) : undefined
    if (!id || !c || c.method !== method || (c.secret ?? null) !== (secret ?? null)) return null
    return id
  }

  const mcp = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const auth = req.headers.authorization
    const grant = auth?.startsWith('Bearer ') ? access.get(auth.slice(7)) : undefined
    if (!grant) {
      // a server that lets anyone initialize: the 401 comes with the first real request
      const m =
        o.openInitialize && req.method === 'POST'
          ? (JSON.parse(body) as { id?: number; method?: string })
          : null
      if (m?.method === 'initialize')
        return json(res, 200, {
          jsonrpc: '2.0',
          id: m.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'protected', version: '1' },
          },
        })
      if (m && m.id === undefined) return void res.writeHead(202).end()
      return challenge(res, 401, auth ? 'error="invalid_token"' : '')
    }
    if (sse && req.url?.startsWith('/messages')) return void sse.post(req, res, body)
    if (sse) return void (req.method === 'GET' ? sse.get(res) : res.writeHead(405).end())
    if (req.method === 'GET') return void res.writeHead(405).end()
    if (req.method === 'DELETE') return void res.writeHead(200).end()
    const msg = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } }
    if (msg.id === undefined) return void res.writeHead(202).end()
    const answer = (result: unknown): void => json(res, 200, { jsonrpc: '2.0', id: msg.id, result })
    if (msg.method === 'initialize')
      return answer({
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'protected', version: '1' },
      })
    if (msg.method === 'tools/list' && o.listScope && !grant.scope.split(' ').includes(o.listScope))
      return challenge(res, 403, `error="insufficient_scope", scope="${o.listScope}"`)
    if (msg.method === 'tools/list')
      return answer({
        tools: ['whoami', 'admin', 'leak'].map((name) => ({
          name,
          inputSchema: { type: 'object', properties: {} },
        })),
      })
    if (msg.method === 'tools/call') {
      if (
        msg.params?.name === 'admin' &&
        o.adminScope &&
        !grant.scope.split(' ').includes(o.adminScope)
      )
        return challenge(res, 403, `error="insufficient_scope", scope="${o.adminScope}"`)
      // `leak` says what a careless server might: the credentials it was sent
      if (msg.params?.name === 'leak')
        return answer({ content: [{ type: 'text', text: `you sent: ${auth}` }] })
      return answer({ content: [{ type: 'text', text: `scope: ${grant.scope || '(none)'}` }] })
    }
    json(res, 200, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } })
  }

  const tokenEndpoint = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const form = new URLSearchParams(body)
    const clientId = clientAuth(req, form)
    if (!clientId) return json(res, 401, { error: 'invalid_client' })
    const issue = (scope: string): void => {
      const a = token()
      const r = token()
      access.set(a, { scope })
      refresh.set(r, { clientId, scope })
      issued.push(a)
      refreshIssued.push(r)
      json(res, 200, {
        access_token: a,
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: r,
        scope,
      })
    }
    if (!resourceOk(form.get('resource'))) return json(res, 400, { error: 'invalid_target' })
    if (form.get('grant_type') === 'authorization_code') {
      const c = codes.get(form.get('code') ?? '')
      codes.delete(form.get('code') ?? '')
      if (!c || c.clientId !== clientId) return json(res, 400, { error: 'invalid_grant' })
      if (c.redirectUri !== form.get('redirect_uri'))
        return json(res, 400, { error: 'invalid_grant' })
      if (sha256(form.get('code_verifier') ?? '') !== c.challenge)
        return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE' })
      return issue(c.scope)
    }
    if (form.get('grant_type') === 'refresh_token') {
      const r = refresh.get(form.get('refresh_token') ?? '')
      if (!r || r.clientId !== clientId) return json(res, 400, { error: 'invalid_grant' })
      refresh.delete(form.get('refresh_token') ?? '')
      return issue(r.scope)
    }
    json(res, 400, { error: 'unsupported_grant_type' })
  }

  const authorize = (url: URL, res: ServerResponse): void => {
    const q = url.searchParams
    const c = known(q.get('client_id') ?? '')
    const redirect = q.get('redirect_uri') ?? ''
    const okRedirect = c && (c.redirectUris.length === 0 || c.redirectUris.includes(redirect))
    if (
      !okRedirect ||
      q.get('response_type') !== 'code' ||
      q.get('code_challenge_method') !== 'S256'
    )
      return json(res, 400, { error: 'invalid_request' })
    if (!resourceOk(q.get('resource'))) return json(res, 400, { error: 'invalid_target' })
    const code = token()
    codes.set(code, {
      clientId: q.get('client_id') ?? '',
      challenge: q.get('code_challenge') ?? '',
      redirectUri: redirect,
      scope: (q.get('scope') ?? '')
        .split(' ')
        .filter((w) => w && !o.withhold?.includes(w))
        .join(' '),
      resource: q.get('resource') ?? '',
    })
    const back = new URL(redirect)
    if (o.refuse) {
      back.searchParams.set('error', o.refuse)
      back.searchParams.set('error_description', 'the page says no')
    } else back.searchParams.set('code', code)
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state') ?? '')
    if (o.iss) back.searchParams.set('iss', o.iss === true ? origin : o.iss)
    res.writeHead(302, { location: back.href }).end()
  }

  const asMetadata = (): unknown => ({
    issuer: origin,
    authorization_endpoint: o.authorizationEndpoint ?? `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    ...(o.noRegistration ? {} : { registration_endpoint: `${origin}/register` }),
    ...(o.cimd ? { client_id_metadata_document_supported: true } : {}),
    ...(o.iss ? { authorization_response_iss_parameter_supported: true } : {}),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: o.authMethods ?? ['none'],
    ...(o.openIdOnly
      ? {
          jwks_uri: `${origin}/jwks`,
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }
      : {}),
  })

  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', origin)
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      })
      const p = url.pathname
      if (p === '/mcp' || (sse && p === '/messages')) return mcp(req, res, body)
      if (p === '/.well-known/oauth-protected-resource/mcp' && !o.legacy)
        return json(res, 200, {
          resource: mcpUrl(),
          authorization_servers: [origin],
          ...(o.scopesSupported ? { scopes_supported: o.scopesSupported } : {}),
        })
      if (p === '/.well-known/oauth-authorization-server' && !o.openIdOnly && o.legacy !== 'bare')
        return json(res, 200, asMetadata())
      if (p === '/.well-known/openid-configuration' && o.openIdOnly)
        return json(res, 200, asMetadata())
      if (p === '/register' && !o.noRegistration && req.method === 'POST') {
        const meta = JSON.parse(body) as { redirect_uris: string[] }
        const id = `dcr-${token()}`
        clients.set(id, { redirectUris: meta.redirect_uris, method: 'none' })
        return json(res, 201, { ...meta, client_id: id, token_endpoint_auth_method: 'none' })
      }
      if (p === '/authorize') return authorize(url, res)
      if (p === '/token' && req.method === 'POST') return tokenEndpoint(req, res, body)
      json(res, 404, { error: 'not_found' })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: mcpUrl(),
    origin,
    requests,
    issued,
    refreshIssued,
    revokeAll: () => {
      access.clear()
      refresh.clear()
    },
    expireAccess: () => access.clear(),
    close: () =>
      new Promise<void>((r) => {
        void sse?.close()
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
