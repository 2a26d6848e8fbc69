/**
 * `npm run try:servers`: twelve real MCP servers from npm, configured at once, in one
 * conversation. It installs the pinned packages into a cache folder (first run only),
 * writes an MCP configuration in Claude Desktop's format with all twelve, starts Cairn's
 * tool runtime on it (the code the CLI runs) and runs a conversation of two turns through
 * the real turn path against the scripted OpenAI-compatible server of the tests. The
 * scripted model calls at least one tool of every server, looking each up with find_tools
 * when more tools are connected than one request may carry; every approval is allowed.
 *
 * It reports each server (started, tools, time to ready, the call and its result), the
 * tools in every model request, and anything Cairn or Node wrote to stderr or emitted as a
 * process warning. It exits non-zero if a server or a call failed, a request carried more
 * tools than the limit, or a warning appeared.
 *
 * `--cli` runs the same conversation through the `cairn` command instead (built into
 * out/try-servers-cli/; one command per turn with `--mcp-config`, `--approve all` and
 * `--json`, the second with `--session`), and fails on anything it writes to stderr. `--keep` keeps the run's temporary folder.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentEvent, ToolResultEvent } from '../src-preload/contract/events'
import { readMcpConfigFile } from '../src-main/adapters/mcp/config'
import { DEFAULT_LIMITS } from '../src-main/core/agent/limits'
import { PROVIDER_MAX_TOOLS, toolLimit } from '../src-main/core/agent/tool-catalog'
import { modelToolName } from '../src-main/core/tools/tool-names'
import { openAppServices } from '../src-main/services/host/app-services'
import { startToolRuntime } from '../src-main/services/tools/tool-runtime'
import { runSessionTurn } from '../src-main/services/turns/turn-service'
import {
  startScriptedServer,
  textReply,
  toolCallsReply,
  type RecordedRequest,
  type Reply,
} from '../tests/support/openai-server'
import { ensureInstalled, prepare, type Prepared } from './try-servers/setup'
import { CHROMIUM, SECOND_TURN, SERVERS, type PlannedCall, type Work } from './try-servers/servers'

/** the model's context window for the run: a browser's page snapshot is large */
const CONTEXT_WINDOW = 128_000
/** the conversation: the user's messages, one turn each */
const PROMPTS = [
  'Use a tool of every connected server once.',
  'Read the trails table and the memory graph again.',
]

interface Step extends PlannedCall {
  server: string
  /** the turn of the conversation it belongs to (1 or 2) */
  turn: number
  /** the name the model calls it by */
  model: string
  /** how the model came to it */
  via?: 'find_tools' | 'offered'
  callId?: string
  /** the arguments it was called with */
  args?: Record<string, unknown>
  problem?: string
}

interface RequestSeen {
  tools: string[]
}

const out = (line = ''): void => void process.stdout.write(`${line}\n`)

/** what one way of running the conversation (in this process, or the `cairn` command) saw */
interface Ran {
  events: AgentEvent[]
  /** each server's state and tools, when the run can tell */
  servers: { name: string; state: string; error: string | null; tools: number }[] | null
  readyAfter: Map<string, number>
  turnMs: number
  turnError: string
  /** approvals the run was asked for (the CLI's `--approve all` asks none) */
  asked: number
  /** warnings Cairn reported through its warning callbacks */
  cairnWarnings: string[]
  /** what the `cairn` command wrote to stderr */
  cliStderr?: string
}

async function main(): Promise<number> {
  const keep = process.argv.includes('--keep')
  const viaCli = process.argv.includes('--cli')
  // everything Cairn or Node writes to stderr from here on is reported (and fails the run)
  const stderr: string[] = []
  const writeErr = process.stderr.write.bind(process.stderr)
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    stderr.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    return (writeErr as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest)
  }) as typeof process.stderr.write
  const processWarnings: string[] = []
  process.on('warning', (w) => processWarnings.push(`${w.name}: ${w.message}`))

  if (!existsSync(CHROMIUM)) {
    out(`The two browser servers need Chromium at ${CHROMIUM} (Debian: apt-get install chromium).`)
    return 1
  }
  ensureInstalled((m) => out(m))
  const cli = viaCli ? buildCli((m) => out(m)) : null
  const prepared = await prepare()
  const { work } = prepared
  const model = await startScriptedServer({ models: ['scripted-model'] })
  const steps: Step[] = [
    ...SERVERS.flatMap((s) =>
      s.calls.map((c) => ({
        ...c,
        server: s.name,
        turn: 1,
        model: modelToolName(s.name, c.tool, false),
      })),
    ),
    ...SECOND_TURN.map((c) => ({
      ...c.call,
      server: c.server,
      turn: 2,
      model: modelToolName(c.server, c.call.tool, false),
    })),
  ]
  const requests: RequestSeen[] = []
  model.setFallback(scriptedModel(steps, work, requests))
  const limit = toolLimit(DEFAULT_LIMITS.maxToolsOffered)

  const ran = cli
    ? await runThroughCli(cli, prepared, model.baseURL)
    : await runInProcess(prepared, model.baseURL)
  await model.close()
  await prepared.close()
  // warnings are emitted on a later tick
  await new Promise((r) => setTimeout(r, 50))
  process.stderr.write = writeErr

  let exit = 0
  const results = new Map<string, ToolResultEvent>()
  for (const e of ran.events) if (e.type === 'tool_result') results.set(e.id, e)
  out()
  out(
    `Cairn with ${SERVERS.length} MCP servers from npm, one conversation${cli ? ' (the cairn command)' : ''}`,
  )
  out()
  const rows: string[][] = [
    ['server', 'package', 'started', 'tools', 'ready after', 'call', 'result'],
  ]
  let failed = 0
  for (const s of SERVERS) {
    const info = ran.servers?.find((i) => i.name === s.name)
    const mine = steps.filter((st) => st.server === s.name)
    const ok = mine.every((st) => stepOk(st, results))
    // without the runtime's word (the CLI), a server that answered has started
    const ready = ran.servers ? info?.state === 'ready' : ok
    const after = ran.readyAfter.get(s.name)
    if (!ready || !ok) failed++
    mine.forEach((st, i) => {
      const r = st.callId ? results.get(st.callId) : undefined
      rows.push([
        i === 0 ? s.name : '',
        i === 0 ? `${s.pkg}@${s.version}` : '',
        i === 0 ? (ready ? 'yes' : `no${info ? ` (${info.state}: ${info.error ?? ''})` : ''}`) : '',
        i === 0 ? (info ? String(info.tools) : '-') : '',
        i === 0 ? (after === undefined ? '-' : seconds(after)) : '',
        `${st.turn > 1 ? `turn ${st.turn}: ` : ''}${st.tool} ${short(JSON.stringify(st.args ?? {}), 48)}${st.via === 'find_tools' ? ' (found with find_tools)' : st.turn > 1 ? ' (offered again without a search)' : ''}`,
        stepOk(st, results)
          ? `ok (${r!.durationMs} ms)`
          : `FAILED: ${st.problem ?? (r ? short(r.content, 160) : 'not called')}`,
      ])
    })
  }
  table(rows)
  out()
  const slowest = [...ran.readyAfter.entries()].sort((a, b) => b[1] - a[1])[0]
  if (slowest) out(`Every server ready after ${seconds(slowest[1])} (the last: ${slowest[0]})`)
  out(`The conversation (${PROMPTS.length} turns) took ${seconds(ran.turnMs)}`)
  if (ran.servers) {
    const total = ran.servers.reduce((n, s) => n + s.tools, 0)
    out(`Tools connected: ${total} from the servers, plus Cairn's built-in tools`)
  }
  const counts = requests.map((r) => r.tools.length)
  const withFind = requests.filter((r) => r.tools.includes('find_tools')).length
  out(
    `Model requests: ${requests.length}; tools in each: ${counts.join(', ')} (limit ${limit}, never more than ${PROVIDER_MAX_TOOLS})`,
  )
  out(
    `find_tools offered: ${withFind > 0 ? `yes, in ${withFind} of ${requests.length} requests` : 'no'}`,
  )
  out(`Approvals asked and allowed: ${ran.asked}`)
  const over = counts.filter((c) => c > limit || c > PROVIDER_MAX_TOOLS)
  if (over.length > 0) {
    out(`FAILED: ${over.length} request(s) carried more tools than the limit`)
    exit = 1
  }
  if (ran.turnError) {
    out(`FAILED: ${ran.turnError}`)
    exit = 1
  }
  const notices = ran.events.filter((e) => e.type === 'notice')
  for (const n of notices) out(`Notice (${n.level}): ${n.message}`)
  // the CLI prints these as "Warning: …"
  const warningNotices = notices.filter((n) => n.level === 'warning').length

  out()
  out(`Cairn's warnings: ${ran.cairnWarnings.length === 0 ? 'none' : ''}`)
  for (const w of ran.cairnWarnings) out(`  ${w}`)
  out(`Process warnings: ${processWarnings.length === 0 ? 'none' : ''}`)
  for (const w of processWarnings) out(`  ${w}`)
  const written = stderr.join('') + (ran.cliStderr ?? '')
  out(
    `Written to stderr${cli ? ' (this script and the cairn command)' : ''}: ${written.trim() === '' ? 'nothing' : ''}`,
  )
  if (written.trim() !== '') out(written.replace(/^/gm, '  '))
  if (failed > 0) exit = 1
  const warned = ran.cairnWarnings.length + processWarnings.length + warningNotices
  if (warned > 0 || written.trim() !== '') exit = 1
  out()
  out(
    exit === 0
      ? `All ${SERVERS.length} servers started and answered; no warning.`
      : `${failed} server(s) failed${warned > 0 || written.trim() !== '' ? ', and warnings appeared' : ''}; see above.`,
  )
  if (keep) out(`Kept: ${work.root}`)
  else rmSync(work.root, { recursive: true, force: true })
  return exit
}

/** The turn through `runSessionTurn`, on the tool runtime the CLI starts; every approval allowed. */
async function runInProcess(prepared: Prepared, baseUrl: string): Promise<Ran> {
  const cairnWarnings: string[] = []
  const app = openAppServices(prepared.dataDir, { onWarning: (m) => cairnWarnings.push(m) })
  const startedAt = performance.now()
  const readyAfter = new Map<string, number>()
  const runtime = await startToolRuntime(app, {
    override: readMcpConfigFile(prepared.configFile),
    onStatus: (info) => {
      if (info.state === 'ready' && !readyAfter.has(info.name))
        readyAfter.set(info.name, performance.now() - startedAt)
    },
    warn: (m) => cairnWarnings.push(m),
  })
  const events: AgentEvent[] = []
  let asked = 0
  let turnError = ''
  const turnStarted = performance.now()
  let sessionId: string | undefined
  for (const text of PROMPTS) {
    if (turnError) break
    try {
      const run = await runSessionTurn(app, {
        ...(sessionId ? { sessionId } : {}),
        text,
        flags: { baseUrl, model: 'scripted-model' },
        env: {},
        policy: 'ask',
        contextWindow: CONTEXT_WINDOW,
        workspace: prepared.work.workspace,
        tools: (session) => runtime.hostFor(session),
        approver: {
          request: () => {
            asked++
            return Promise.resolve({ decision: 'allow_once' })
          },
        },
        emit: (e) => void events.push(e),
      })
      sessionId = run.sessionId
      if (run.outcome.reason !== 'completed')
        turnError = `the turn ended with ${run.outcome.reason}${run.outcome.error ? `: ${run.outcome.error.message}` : ''}`
    } catch (e) {
      turnError = `the turn failed: ${(e as Error).message}`
    }
  }
  const turnMs = performance.now() - turnStarted
  const servers = runtime.servers().map((i) => ({
    name: i.name,
    state: i.state,
    error: i.error,
    tools: i.tools.length,
  }))
  await runtime.shutdown()
  app.close()
  // the next start finds everything as it should be, and says nothing
  openAppServices(prepared.dataDir, { onWarning: (m) => cairnWarnings.push(m) }).close()
  return { events, servers, readyAfter, turnMs, turnError, asked, cairnWarnings }
}

/** Builds the `cairn` command into out/try-servers-cli/ (it finds node_modules from there). */
function buildCli(log: (m: string) => void): string {
  log('Building the cairn command…')
  const outDir = join(process.cwd(), 'out', 'try-servers-cli')
  const r = spawnSync(
    process.execPath,
    [
      join(process.cwd(), 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.cli.config.ts',
      '--outDir',
      outDir,
      '--logLevel',
      'warn',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  )
  if (r.status !== 0) throw new Error(`building the cairn command failed:\n${r.stderr || r.stdout}`)
  return join(outDir, 'index.js')
}

/**
 * The turn through the `cairn` command, as a user would run it: `--mcp-config` with the
 * twelve, `--approve all`, `--json` (events on stdout; stderr stays empty unless Cairn
 * warns), with only PATH and HOME in its environment.
 */
async function runThroughCli(cli: string, prepared: Prepared, baseUrl: string): Promise<Ran> {
  const started = performance.now()
  const events: AgentEvent[] = []
  let stderr = ''
  let turnError = ''
  let sessionId: string | undefined
  for (const prompt of PROMPTS) {
    const turn = await cairn(cli, [
      '--data-dir',
      prepared.dataDir,
      '--mcp-config',
      prepared.configFile,
      '--base-url',
      baseUrl,
      '--model',
      'scripted-model',
      '--approve',
      'all',
      '--json',
      '--context-window',
      String(CONTEXT_WINDOW),
      '--workspace',
      prepared.work.workspace,
      ...(sessionId ? ['--session', sessionId] : []),
      prompt,
    ])
    stderr += turn.stderr
    const mine: AgentEvent[] = []
    for (const line of turn.stdout.split('\n')) {
      if (line.trim() === '') continue
      try {
        mine.push(JSON.parse(line) as AgentEvent)
      } catch {
        stderr += `(not an event on stdout) ${line}\n`
      }
    }
    events.push(...mine)
    sessionId ??= mine.find((e) => e.type === 'turn_start')?.sessionId
    const end = mine.find((e) => e.type === 'turn_end')
    if (turn.code !== 0) {
      turnError = `cairn exited with ${turn.code}${end?.type === 'turn_end' && end.error ? `: ${end.error.message}` : ''}`
      break
    }
  }
  return {
    events,
    servers: null,
    readyAfter: new Map(),
    turnMs: performance.now() - started,
    turnError,
    asked: 0,
    cairnWarnings: [],
    cliStderr: stderr,
  }
}

/** one `cairn` command, with only PATH and HOME in its environment */
async function cairn(
  cli: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
  return { code, stdout, stderr }
}

function stepOk(st: Step, results: Map<string, ToolResultEvent>): boolean {
  if (st.problem || !st.callId) return false
  const r = results.get(st.callId)
  return r !== undefined && r.ok && st.expect(r.content)
}

/**
 * The model: one search and one call per round. A tool already offered is called at once;
 * any other is looked up with find_tools first and called in the next round, by the name
 * the search gave, once it is offered.
 */
function scriptedModel(
  steps: Step[],
  work: Work,
  requests: RequestSeen[],
): (req: RecordedRequest) => Reply {
  let turn = 1
  let next = 0
  let searched: { step: Step; callId: string } | null = null
  let seq = 0
  return (req) => {
    const mine = steps.filter((s) => s.turn === turn)
    const body = req.body as {
      tools?: { function: { name: string } }[]
      messages: { role: string; tool_call_id?: string; content?: unknown }[]
    }
    const offered = (body.tools ?? []).map((t) => t.function.name)
    requests.push({ tools: offered })
    const calls: { id: string; name: string; arguments: string }[] = []
    if (searched) {
      const { step, callId } = searched
      searched = null
      const answer = body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)
      const text = textOf(answer?.content)
      if (!text.includes(step.model)) step.problem = `find_tools did not list ${step.model}`
      else if (!offered.includes(step.model))
        step.problem = `${step.model} was found but not offered in the next request`
      else calls.push(callOf(step))
    }
    while (next < mine.length && calls.length < 2) {
      const step = mine[next]!
      // a server's next call may use what its last one answered: it waits for that answer
      if (calls.some((c) => steps.some((s) => s.callId === c.id && s.server === step.server))) break
      next++
      if (offered.includes(step.model)) {
        step.via = 'offered'
        calls.push(callOf(step))
        continue
      }
      if (!offered.includes('find_tools')) {
        step.problem = `${step.model} was not offered, and neither was find_tools`
        continue
      }
      step.via = 'find_tools'
      const callId = `search-${++seq}`
      calls.push({
        id: callId,
        name: 'find_tools',
        arguments: JSON.stringify({ query: step.query, limit: 5 }),
      })
      searched = { step, callId }
      break
    }
    if (calls.length === 0) {
      // this turn is done; the next request is the next turn's
      turn++
      next = 0
      return textReply('Every server answered.')
    }
    return toolCallsReply(calls)

    function callOf(step: Step): { id: string; name: string; arguments: string } {
      step.callId = `call-${++seq}`
      // the answers of this server's earlier calls, as the model read them
      const earlier = steps
        .filter((s) => s.server === step.server && s.callId && s !== step)
        .map((s) => {
          const m = body.messages.find((x) => x.role === 'tool' && x.tool_call_id === s.callId)
          return textOf(m?.content)
        })
      step.args = step.arguments(work, earlier)
      return { id: step.callId, name: step.model, arguments: JSON.stringify(step.args) }
    }
  }
}

/** a message's text, whether its content is a string or a list of parts */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : ''))
    .join('')
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function short(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim()
  return one.length > n ? `${one.slice(0, n)}…` : one
}

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  for (const r of rows)
    out(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
}

main().then(
  (code) => {
    process.exitCode = code
    // a server process that lingers must not keep the script alive
    setTimeout(() => process.exit(code), 3000).unref()
  },
  (e: unknown) => {
    process.stdout.write(
      `try:servers failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    )
    process.exit(1)
  },
)
