/**
 * `npm run soak`: about four minutes (`CAIRN_SOAK_SECONDS`, default 240) of turns on one data
 * directory from browser mode (three windows over its WebSocket) and the `cairn` command,
 * against the scripted OpenAI-compatible server (strict: it refuses a history a strict
 * provider would refuse), with stops, SIGKILLs of the CLI and of the browser host (started
 * again each time), and search, export and list running beside the turns. Then it checks:
 * no acknowledged message lost, none stored twice, every history sent valid for a strict
 * provider (and one more turn in each chat accepted), the database's integrity, no process
 * left, no warning printed, and the host's heap after GC. Prints the figures; exits 1 on a
 * failure. Not part of the test command: run it before a release.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { createSessionStore } from '../src-main/adapters/sqlite/session-store'
import {
  slowText,
  startScriptedServer,
  textReply,
  validateStrict,
  type ScriptedServer,
} from '../tests/support/openai-server'
import { SoakWindow } from './soak-window'

const SECONDS = Number(process.env['CAIRN_SOAK_SECONDS'] ?? 240)
const root = fs.mkdtempSync(path.join(tmpdir(), 'cairn-soak-'))
const dataDir = path.join(root, 'data')
/** when the turns stop: set once browser mode has started */
let deadline = Infinity
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)]

/** what a host or the CLI said on stderr that is not expected: a warning the user would see */
const printed: string[] = []
const EXPECTED_STDERR = [
  /^Debugger (listening|attached|ending)/,
  /^Stopping Cairn \(running turns are saved\)…$/,
  /^For help, see/,
  /^(New session|Session) \S+ · /,
  // the CLI's summary of a turn
  /^[\d,]+ tokens in, [\d,]+ out/,
  /^\s*$/,
]
function watchStderr(child: ChildProcess, who: string, onLine?: (line: string) => void): void {
  let carry = ''
  child.stderr?.on('data', (d: Buffer) => {
    const lines = (carry + d.toString()).split('\n')
    carry = lines.pop() ?? ''
    for (const line of lines) {
      onLine?.(line)
      if (!EXPECTED_STDERR.some((re) => re.test(line))) printed.push(`${who}: ${line}`)
    }
  })
}

const env = (server: ScriptedServer): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'],
  HOME: root,
  CAIRN_BASE_URL: server.baseURL,
  CAIRN_MODEL: 'soak',
  CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
})

/** Browser mode in its own process (inspectable, for its heap), started again after a kill. */
class BrowserHost {
  child: ChildProcess | null = null
  url = ''
  inspector = ''
  kills = 0
  constructor(private readonly server: ScriptedServer) {}

  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      ['--inspect=127.0.0.1:0', '--import', 'tsx', 'src-main/web/index.ts', '--no-open'].concat([
        '--port',
        '0',
        '--data-dir',
        dataDir,
      ]),
      { env: env(this.server), stdio: ['ignore', 'pipe', 'pipe'] },
    )
    this.child = child
    watchStderr(child, 'browser mode', (line) => {
      const m = /Debugger listening on (ws:\S+)/.exec(line)
      if (m?.[1]) this.inspector = m[1]
    })
    this.url = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /Cairn is running at (\S+)/.exec(out)
        if (m?.[1]) resolve(m[1])
      })
      child.once('exit', (code, signal) =>
        reject(new Error(`browser mode exited (${code ?? signal})`)),
      )
    })
  }

  async kill(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
    this.kills++
  }

  async stop(): Promise<number | null> {
    const child = this.child
    if (!child || child.exitCode !== null) return child?.exitCode ?? null
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    child.kill('SIGTERM')
    return exited
  }
}

/** One acknowledged user message: it must be stored exactly once. */
interface Acked {
  sessionId: string
  text: string
  via: string
}

const acked: Acked[] = []
const counts = {
  windowTurns: 0,
  cliTurns: 0,
  stops: 0,
  cliKills: 0,
  refused: 0,
  lostSends: 0,
  ops: 0,
}
const refusals = new Map<string, number>()

async function windowLoop(n: number, host: BrowserHost): Promise<void> {
  const mine: string[] = []
  let turn = 0
  let window: SoakWindow | null = null
  while (Date.now() < deadline) {
    if (!window?.open) {
      window = await SoakWindow.connect(host.url).catch(() => null)
      if (!window) {
        await sleep(200)
        continue
      }
    }
    const sessionId = Math.random() < 0.3 ? undefined : pick(mine)
    const text = `window ${n} message ${++turn}`
    const sent = await window.request('chat.send', {
      text,
      workspace: root,
      ...(sessionId ? { sessionId } : {}),
    })
    if (!sent.ok) {
      if (sent.error.code === 'lost') counts.lostSends++
      else {
        counts.refused++
        refusals.set(sent.error.code, (refusals.get(sent.error.code) ?? 0) + 1)
      }
      continue
    }
    const data = sent.data as { sessionId: string; turnId: string }
    acked.push({ sessionId: data.sessionId, text, via: `window ${n}` })
    if (!mine.includes(data.sessionId)) mine.push(data.sessionId)
    counts.windowTurns++
    if (Math.random() < 0.1) {
      await sleep(50 + Math.random() * 300)
      await window.request('chat.stop', { turnId: data.turnId })
      counts.stops++
    }
    await window.turnEnded(data.turnId, 30_000)
  }
  window?.close()
}

/** search, export and list beside the turns, from a window of their own */
async function opsLoop(host: BrowserHost): Promise<void> {
  let window: SoakWindow | null = null
  while (Date.now() < deadline) {
    await sleep(150)
    if (!window?.open) {
      window = await SoakWindow.connect(host.url).catch(() => null)
      continue
    }
    const list = await window.request('sessions.list', { limit: 50 })
    const sessions = list.ok ? (list.data as { sessions: { id: string }[] }).sessions : []
    await window.request('sessions.search', { query: `message ${Math.ceil(Math.random() * 50)}` })
    const one = pick(sessions)
    if (one) await window.request('sessions.export', { id: one.id, format: pick(['md', 'json'])! })
    counts.ops += 3
  }
  window?.close()
}

/** `cairn "<prompt>"` again and again, a quarter of the runs killed with SIGKILL mid-turn */
async function cliLoop(server: ScriptedServer): Promise<void> {
  const mine: string[] = []
  let turn = 0
  while (Date.now() < deadline) {
    const sessionId = Math.random() < 0.4 ? undefined : pick(mine)
    const text = `cli message ${++turn}`
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli/index.ts', '--data-dir', dataDir]
        .concat(sessionId ? ['--session', sessionId] : [])
        .concat([text]),
      { env: env(server), stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let started: string | null = null
    watchStderr(child, 'cairn', (line) => {
      const m = /^(?:New session|Session) (\S+) · /.exec(line)
      if (m?.[1] && !started) {
        started = m[1]
        acked.push({ sessionId: started, text, via: 'cli' })
        if (!mine.includes(started)) mine.push(started)
      }
    })
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    if (Math.random() < 0.25) {
      await Promise.race([exited, sleep(2_000 + Math.random() * 3_000)])
      if (child.exitCode === null) {
        child.kill('SIGKILL')
        counts.cliKills++
      }
    }
    await exited
    if (started) counts.cliTurns++
  }
}

/** SIGKILLs browser mode every 20 to 40 s, and starts it again */
async function killLoop(host: BrowserHost): Promise<void> {
  while (Date.now() < deadline - 15_000) {
    await sleep(20_000 + Math.random() * 20_000)
    if (Date.now() >= deadline - 15_000) break
    await host.kill()
    await host.start()
  }
}

/** the host's JS heap after two full collections, through its inspector */
async function heapAfterGc(inspector: string): Promise<number> {
  const { default: WebSocket } = await import('ws')
  const ws = new WebSocket(inspector)
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)))
  let next = 1
  const call = (method: string): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const id = next++
      const onMessage = (raw: Buffer): void => {
        const msg = JSON.parse(raw.toString()) as { id?: number; result?: Record<string, unknown> }
        if (msg.id !== id) return
        ws.off('message', onMessage)
        resolve(msg.result ?? {})
      }
      ws.on('message', onMessage)
      ws.send(JSON.stringify({ id, method }))
    })
  await call('HeapProfiler.collectGarbage')
  await call('HeapProfiler.collectGarbage')
  const usage = await call('Runtime.getHeapUsage')
  ws.close()
  return Number(usage['usedSize'])
}

/** the processes still running whose command line names the soak's folder */
function leftovers(): string[] {
  const found: string[] = []
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
      if (cmd.includes(root) && Number(pid) !== process.pid) found.push(`${pid} ${cmd.trim()}`)
    } catch {
      // gone meanwhile
    }
  }
  return found
}

/** one more turn in each chat (up to 80): the strict server must take its history */
async function continueEach(host: BrowserHost, sessionIds: string[]): Promise<string[]> {
  const problems: string[] = []
  const window = await SoakWindow.connect(host.url)
  for (const sessionId of sessionIds.slice(0, 80)) {
    const sent = await window.request('chat.send', { sessionId, text: 'one more', workspace: root })
    if (!sent.ok) {
      problems.push(`${sessionId}: ${sent.error.code} ${sent.error.message}`)
      continue
    }
    const end = await window.turnEnded((sent.data as { turnId: string }).turnId, 30_000)
    if (end?.reason !== 'completed')
      problems.push(`${sessionId}: ended ${end?.reason ?? 'never'} ${end?.error ?? ''}`)
  }
  window.close()
  return problems
}

async function main(): Promise<number> {
  const server = await startScriptedServer({ models: ['soak'] })
  let answers = 0
  server.setFallback(() => {
    answers++
    // some answers stream slowly, for stops and kills to land in the middle of them
    return Math.random() < 0.3 ? slowText(30, 40) : textReply(`answer ${answers}`)
  })
  const host = new BrowserHost(server)
  const failures: string[] = []
  console.log(`Soak: ${SECONDS} s in ${dataDir}`)
  await host.start()
  const heapStart = await heapAfterGc(host.inspector).catch(() => NaN)
  const started = Date.now()
  deadline = started + SECONDS * 1000
  await Promise.all([
    windowLoop(1, host),
    windowLoop(2, host),
    windowLoop(3, host),
    opsLoop(host),
    cliLoop(server),
    killLoop(host),
  ])
  const ran = (Date.now() - started) / 1000
  // the last incarnation of the host: its heap after the load, against its start
  const heapEnd = await heapAfterGc(host.inspector).catch(() => NaN)

  const store = createSessionStore(dataDir)
  const sessions = store.listSessions({ limit: 100_000, includeArchived: true }).sessions
  const userTexts = new Map<string, number>()
  const bySession = new Map<string, { role: string; content: string }[]>()
  let empty = 0
  for (const s of sessions) {
    const messages = store.listMessages(s.id)
    bySession.set(s.id, messages)
    if (!messages.some((m) => m.role === 'user')) empty++
    for (const m of messages) {
      if (m.role === 'user' && m.kind === 'message' && m.content !== 'one more')
        userTexts.set(m.content, (userTexts.get(m.content) ?? 0) + 1)
    }
  }
  store.close()
  let lost = 0
  for (const a of acked) {
    const found = (bySession.get(a.sessionId) ?? []).filter(
      (m) => m.role === 'user' && m.content === a.text,
    ).length
    if (found === 0) {
      lost++
      failures.push(`lost: "${a.text}" (${a.via}, session ${a.sessionId})`)
    }
  }
  const duplicates = [...userTexts].filter(([, n]) => n > 1)
  for (const [text, n] of duplicates) failures.push(`stored ${n} times: "${text}"`)
  if (empty > 0) failures.push(`${empty} chat(s) without a message`)
  const refused = server.requests.filter((r) => {
    const body = r.body as { messages?: unknown } | null
    return validateStrict(body?.messages) !== null
  })
  for (const r of refused.slice(0, 5))
    failures.push(
      `a history a strict provider refuses: ${validateStrict((r.body as { messages?: unknown }).messages)}`,
    )
  const continued = await continueEach(
    host,
    sessions.map((s) => s.id),
  )
  for (const p of continued) failures.push(`continuing a chat: ${p}`)
  const hostExit = await host.stop()
  // 128 + SIGTERM: browser mode stopped as asked, once its turns were saved
  if (hostExit !== 143) failures.push(`browser mode exited with ${hostExit} at SIGTERM, not 143`)

  const db = new Database(path.join(dataDir, 'cairn.db'), { readonly: true })
  const integrity = String(db.pragma('integrity_check', { simple: true }))
  db.close()
  if (integrity !== 'ok') failures.push(`integrity_check: ${integrity}`)
  await sleep(1_500)
  const left = leftovers()
  for (const l of left) failures.push(`left running: ${l}`)
  for (const line of printed.slice(0, 20)) failures.push(`printed: ${line}`)
  await server.close()

  const ms = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MiB`
  const turns = counts.windowTurns + counts.cliTurns
  console.log(
    `ran ${ran.toFixed(0)} s: ${turns} acknowledged turns (${counts.windowTurns} from 3 windows, ${counts.cliTurns} from the CLI), ${answers} model answers`,
  )
  console.log(
    `  stops ${counts.stops}, SIGKILLs: browser mode ${host.kills}, CLI ${counts.cliKills}; sends lost with the connection (not acknowledged) ${counts.lostSends}`,
  )
  console.log(
    `  refused sends ${counts.refused}${refusals.size ? ` (${[...refusals].map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}; search, export and list calls ${counts.ops}`,
  )
  console.log(
    `  chats ${sessions.length}, empty ${empty}; acknowledged messages ${acked.length}, lost ${lost}, stored twice ${duplicates.length}`,
  )
  console.log(
    `  requests to the model ${server.requests.length}, histories a strict provider refuses ${refused.length}; chats continued at the end ${Math.min(80, sessions.length)}, refused ${continued.length}`,
  )
  console.log(
    `  integrity_check ${integrity}; processes left ${left.length}; lines printed on stderr beyond the expected ${printed.length}`,
  )
  console.log(
    `  browser mode's heap after GC: at first start ${ms(heapStart)}, its last run after the load ${ms(heapEnd)}`,
  )
  console.log(`  ${(turns / ran).toFixed(2)} turns a second`)
  if (failures.length > 0) {
    console.log(`FAILED (${failures.length}):`)
    for (const f of failures.slice(0, 40)) console.log(`  ${f}`)
    return 1
  }
  console.log('PASS')
  return 0
}

const code = await main().catch((e: unknown) => {
  console.error(e)
  return 1
})
fs.rmSync(root, { recursive: true, force: true })
process.exit(code)
