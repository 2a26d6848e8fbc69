/**
 * The client the MCP conformance suite runs (`npm run conformance`, scripts/conformance.ts):
 * `conformance-client.ts <server-url>`, with the scenario's name in `MCP_CONFORMANCE_SCENARIO`
 * and its extra data (a pre-registered client) in `MCP_CONFORMANCE_CONTEXT`.
 *
 * It is Cairn's own MCP client, not a second one: the server is reached through
 * `McpConnection` (Streamable HTTP, elicitation, the background OAuth provider, the guarded
 * fetch), a login goes through `loginToServer` (discovery, registration or a configured
 * client, PKCE, the loopback callback with its `state` check), and a question from the
 * server is answered by the CLI's elicitor as `cairn --approve all` without a terminal
 * answers it (a form whose required fields all have defaults, with those defaults).
 *
 * What stands in for the person: the browser is a fetch that follows the authorization
 * page's redirects back to Cairn's loopback address (the suite's authorization server
 * approves at once), and "Log in" is pressed whenever the connection says the server needs
 * a login, at most MAX_LOGINS times, as a person would give up after a few tries.
 */
import { Writable } from 'node:stream'
import type { HttpServerConfig } from '../src-main/core/mcp-ports'
import { McpConnection } from '../src-main/adapters/mcp/connection'
import { loginToServer } from '../src-main/adapters/mcp/oauth-login'
import { McpAuthStore, type McpAuthSecrets } from '../src-main/adapters/mcp/oauth-store'
import { terminalElicitor } from '../src-main/cli/elicitor'
import type { ToolCallScope, ToolOutcome } from '../src-main/core/ports'

const NAME = 'conformance'
/**
 * Logins tried in one run, a safety net only: Cairn itself stops asking for a login when
 * the server refuses a scope the last login already asked for. It is above the three
 * authorization requests the suite's auth/scope-retry-limit scenario allows, so that
 * scenario fails if Cairn ever asks again and again.
 */
const MAX_LOGINS = 5
/**
 * The address of a client ID metadata document, configured as a user who publishes one
 * would (`oauth.clientMetadataUrl`): the suite's authorization servers that support such
 * documents expect exactly this client id; the others lead to dynamic registration.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'

/** the tool each scenario's server expects to be called, and its arguments */
const CALLS: Record<string, { tool: string; args: Record<string, unknown> }> = {
  tools_call: { tool: 'add_numbers', args: { a: 2, b: 3 } },
  'sse-retry': { tool: 'test_reconnection', args: {} },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
}
const AUTH_CALL = { tool: 'test-tool', args: {} }

function log(line: string): void {
  process.stderr.write(`[cairn-conformance] ${line}\n`)
}

/** the secrets store, in memory: one run, nothing kept */
function memorySecrets(): McpAuthSecrets {
  const map = new Map<string, string>()
  return {
    getMcpAuth: (url) => map.get(url),
    setMcpAuth: (url, json) => (json === null ? map.delete(url) : map.set(url, json)),
  }
}

/** The browser: follows the authorization page's redirects until Cairn's callback answers. */
async function browser(authorizationUrl: URL): Promise<void> {
  let next: URL = authorizationUrl
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(next, { redirect: 'manual' })
    await res.body?.cancel().catch(() => {})
    const location = res.headers.get('location')
    if (res.status < 300 || res.status >= 400 || !location) {
      if (res.ok) return
      throw new Error(`${next.href} answered ${res.status}`)
    }
    next = new URL(location, next)
  }
  throw new Error('the authorization page redirected more than 10 times')
}

function context(): Record<string, unknown> {
  const raw = process.env['MCP_CONFORMANCE_CONTEXT']
  if (!raw) return {}
  const v = JSON.parse(raw) as unknown
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : {}
}

function serverConfig(url: string, scenario: string): HttpServerConfig {
  if (!scenario.startsWith('auth/')) return { url }
  const ctx = context()
  if (typeof ctx['client_id'] === 'string') {
    // a client registered beforehand, as a user writes it into the server's entry
    return {
      url,
      oauth: {
        clientId: ctx['client_id'],
        ...(typeof ctx['client_secret'] === 'string' ? { clientSecret: ctx['client_secret'] } : {}),
      },
    }
  }
  return { url, oauth: { clientMetadataUrl: CLIENT_METADATA_URL } }
}

async function main(): Promise<void> {
  const url = process.argv[2]
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? ''
  if (!url) throw new Error('usage: conformance-client.ts <server-url>')
  log(`scenario ${scenario || '(none)'} at ${url}`)
  const config = serverConfig(url, scenario)
  const store = new McpAuthStore(memorySecrets())
  const conn = new McpConnection(NAME, config, {
    launchStdio: () => Promise.reject(new Error('the conformance client runs no commands')),
    clientVersion: 'conformance',
    oauthStore: store,
    onWarning: (m) => log(`warning: ${m}`),
  })
  let logins = 0
  const login = async (): Promise<void> => {
    if (logins >= MAX_LOGINS)
      throw new Error(`still needs a login after ${logins} logins: ${conn.info().error}`)
    logins++
    log(`login ${logins}: ${conn.info().error}`)
    await loginToServer(NAME, config, { store, open: browser, clientVersion: 'conformance' })
    await conn.restart()
  }
  try {
    await conn.start()
    while (conn.status() === 'needs-login') await login()
    if (conn.status() !== 'ready')
      throw new Error(`the server is ${conn.status()}: ${conn.info().error}`)
    log(
      `ready; tools: ${
        conn
          .tools()
          .map((t) => t.name)
          .join(', ') || '(none)'
      }`,
    )

    const call = CALLS[scenario] ?? (scenario.startsWith('auth/') ? AUTH_CALL : null)
    if (!call) return
    // no terminal (a stream without isTTY): the elicitor answers with the defaults under
    // --approve all, and says so on this stream
    const noTerminal = new Writable({
      write: (chunk: Buffer, _encoding, done) => void process.stderr.write(chunk, done),
    }) as unknown as NodeJS.WriteStream
    const elicitor = terminalElicitor(process.stdin, noTerminal, () => {}, 'all')
    const ctx: ToolCallScope = {
      signal: new AbortController().signal,
      sessionId: 'conformance',
      toolCallId: 'call-1',
      elicit: (ask) =>
        elicitor.request(
          {
            type: 'elicitation_request',
            requestId: 'elicit-1',
            toolCallId: 'call-1',
            sessionId: 'conformance',
            turnId: 'turn-1',
            at: Date.now(),
            ...ask,
          },
          new AbortController().signal,
        ),
    }
    let outcome: ToolOutcome | null = null
    while (!outcome) {
      try {
        outcome = await conn.call(call.tool, call.args, ctx)
      } catch (e) {
        if (conn.status() !== 'needs-login') throw e
        await login()
      }
    }
    const text = outcome.content.map((p) => ('text' in p ? p.text : `[${p.type}]`)).join(' ')
    log(`${call.tool} answered${outcome.isError ? ' (an error)' : ''}: ${text}`)
    if (outcome.isError) throw new Error(`${call.tool} failed: ${text}`)
  } finally {
    await conn.stop()
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    log(`failed: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  },
)
