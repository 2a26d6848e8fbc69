/**
 * The client the MCP conformance suite runs (`npm run conformance`, scripts/conformance.ts):
 * `conformance-client.ts <server-url>`, with the scenario's name in `MCP_CONFORMANCE_SCENARIO`
 * and its extra data (a pre-registered client, arguments to send) in `MCP_CONFORMANCE_CONTEXT`.
 *
 * It is Cairn's own MCP client, not a second one: the server is reached through
 * `McpConnection` (the protocol revision found at connect time, Streamable HTTP, elicitation,
 * the background OAuth provider, the guarded fetch, step-up), a login goes through
 * `loginToServer` (discovery, registration or a configured client, PKCE, the loopback
 * callback with its `state` and `iss` checks), resources and prompts through the catalog's
 * readers, and a question from the server is answered by the CLI's elicitor as
 * `cairn --approve all` without a terminal answers it (a form whose required fields all have
 * defaults, with those defaults).
 *
 * What stands in for the person: the browser is a fetch that follows the authorization
 * page's redirects back to Cairn's loopback address (the suite's authorization server
 * approves at once); "Log in" is pressed whenever the connection says the server needs a
 * login, at most MAX_LOGINS times, as a person would give up after a few tries; and when a
 * call asks to log in again for more permission, the person opens the address it shows.
 */
import { Writable } from 'node:stream'
import type { HttpServerConfig } from '../src-main/core/mcp-ports'
import { McpConnection } from '../src-main/adapters/mcp/connection'
import { loginToServer } from '../src-main/adapters/mcp/oauth-login'
import { McpAuthStore, type McpAuthSecrets } from '../src-main/adapters/mcp/oauth-store'
import { getPromptMessages, listPrompts } from '../src-main/adapters/mcp/prompts'
import { listResources, readResourceParts } from '../src-main/adapters/mcp/resources'
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
 * The suite's authorization servers that support client ID metadata documents expect
 * exactly this client id: it is given as the setting that overrides the address of Cairn's
 * own document, as a user who publishes their own would.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'

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

/** a value for each required argument of a tool, of the type its schema says (a model's stand-in) */
function sampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema['properties'] ?? {}) as Record<string, { type?: unknown }>
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : []
  const sample = (type: unknown): unknown =>
    type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : 'sample'
  return Object.fromEntries(required.map((name) => [name, sample(props[name]?.type)]))
}

/** A tool call with the arguments the scenario's server expects. */
type Call = (tool: string, args: Record<string, unknown>) => Promise<ToolOutcome>

interface Run {
  conn: McpConnection
  call: Call
}

/** what each scenario's server expects of the client after it is connected */
const SCENARIOS: Record<string, (r: Run) => Promise<void>> = {
  tools_call: async ({ conn, call }) => {
    const first = conn.tools()[0]
    if (first) await call(first.name, { a: 2, b: 3 })
  },
  'sse-retry': async ({ call }) => void (await call('test_reconnection', {})),
  'elicitation-sep1034-client-defaults': async ({ call }) =>
    void (await call('test_client_elicitation_defaults', {})),
  'sep-2322-client-request-state': async ({ call }) => {
    await call('test_mrtr_echo_state', {})
    await call('test_mrtr_unrelated', {})
    await call('test_mrtr_no_state', {})
    await call('test_mrtr_no_result_type', {})
  },
  'http-standard-headers': async ({ conn, call }) => {
    for (const t of conn.tools()) await call(t.name, sampleArguments(t.inputSchema))
    const client = conn.readyClient()!
    const { resources } = await listResources(NAME, client)
    for (const r of resources) await readResourceParts(client, NAME, r.uri, r.name)
    for (const p of await listPrompts(NAME, client))
      await getPromptMessages(NAME, client, p.name, {})
  },
  'http-custom-headers': async ({ call }) => {
    const calls = context()['toolCalls'] as { name: string; arguments: Record<string, unknown> }[]
    for (const c of calls ?? []) await call(c.name, c.arguments)
  },
  'http-invalid-tool-headers': async ({ conn, call }) => {
    // the tools whose header declarations are invalid are not listed: every other is called
    for (const t of conn.tools()) await call(t.name, sampleArguments(t.inputSchema))
  },
  'json-schema-2020-12-preservation': async ({ conn, call }) => {
    const focal = conn.tools().find((t) => t.name === 'json_schema_2020_12_tool')
    if (!focal) throw new Error('the server did not list json_schema_2020_12_tool')
    await call('json_schema_echo', { schema: focal.inputSchema })
  },
}

/** every login scenario's server has this tool for the client to call once logged in */
const AUTH_CALL = async ({ call }: Run): Promise<void> => void (await call('test-tool', {}))

function callContext(): ToolCallScope {
  // no terminal (a stream without isTTY): the elicitor answers forms with their defaults
  // under --approve all, and says so on this stream
  const noTerminal = new Writable({
    write: (chunk: Buffer, _encoding, done) => void process.stderr.write(chunk, done),
  }) as unknown as NodeJS.WriteStream
  const elicitor = terminalElicitor(process.stdin, noTerminal, () => {}, 'all')
  let n = 0
  return {
    signal: new AbortController().signal,
    sessionId: 'conformance',
    toolCallId: 'call-1',
    elicit: async (ask) => {
      if (ask.mode === 'url' && ask.url) {
        // a login page to open (a step-up): the person opens it
        log(`opens ${ask.url.split('?')[0]}: ${ask.message}`)
        await browser(new URL(ask.url))
        return { action: 'accept' }
      }
      return elicitor.request(
        {
          type: 'elicitation_request',
          requestId: `elicit-${++n}`,
          toolCallId: 'call-1',
          sessionId: 'conformance',
          turnId: 'turn-1',
          at: Date.now(),
          ...ask,
        },
        new AbortController().signal,
      )
    },
  }
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
  const ctx = callContext()
  const call: Call = async (tool, args) => {
    for (;;) {
      try {
        const outcome = await conn.call(tool, args, ctx)
        const text = outcome.content.map((p) => ('text' in p ? p.text : `[${p.type}]`)).join(' ')
        log(`${tool} answered${outcome.isError ? ' (an error)' : ''}: ${text.slice(0, 300)}`)
        return outcome
      } catch (e) {
        if (conn.status() !== 'needs-login') throw e
        await login()
      }
    }
  }
  try {
    await conn.start()
    while (conn.status() === 'needs-login') await login()
    if (conn.status() !== 'ready')
      throw new Error(`the server is ${conn.status()}: ${conn.info().error}`)
    const tools = conn.tools().map((t) => t.name)
    log(`ready (${conn.info().transport}); tools: ${tools.join(', ') || '(none)'}`)
    const steps = SCENARIOS[scenario] ?? (scenario.startsWith('auth/') ? AUTH_CALL : null)
    if (steps) await steps({ conn, call })
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
