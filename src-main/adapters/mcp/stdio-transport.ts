/**
 * Cairn's stdio transport for MCP servers, on the SDK's framing (newline-delimited JSON-RPC)
 * but made for servers in the wild:
 * - the server leads its own process group (detached on POSIX), and closing ends the whole
 *   group: stdin EOF → grace → SIGTERM group → grace → SIGKILL group; grandchildren that
 *   outlive the server (npx, uvx, shells) are swept too;
 * - stderr is always piped and drained into a bounded tail (the last bytes, for the status);
 * - stdout lines that are not JSON-RPC (banners, logs) are skipped and counted, never fatal.
 */
import type { ChildProcess } from 'node:child_process'
import crossSpawn from 'cross-spawn'
import fs from 'node:fs'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import {
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client'
import { signalGroup, terminateGroup } from './process-tree'
import { responseId } from './response-id'
import { ByteTail, LineSplitter } from './stderr-tail'
import {
  describeExit,
  spawnFailure,
  type GroupStdioOptions,
  type ProcessExit,
} from './stdio-options'

export type { GroupStdioOptions, ProcessExit } from './stdio-options'

const NOISE_SHOWN_CHARS = 500
/** after the process exits, how long to wait for the rest of its stdout (a grandchild may hold it open) */
const STDOUT_DRAIN_MS = 500

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  sessionId?: string

  private readonly opts: GroupStdioOptions
  private readonly graceMs: number
  private readonly tail: ByteTail
  private readonly noise = new ByteTail(4096)
  private readonly lines: LineSplitter
  private child: ChildProcess | null = null
  private state: 'new' | 'starting' | 'running' | 'exited' | 'failed' = 'new'
  private starting: Promise<void> | null = null
  private closing: Promise<void> | null = null
  private finishing: Promise<void> | null = null
  private exitInfo: ProcessExit | null = null
  private noiseLines = 0
  private closeNotified = false
  private readonly pendingSends = new Set<(e: Error) => void>()
  private readonly exitWaiters = new Set<() => void>()
  private readonly inbox: JSONRPCMessage[] = []
  private delivering = false
  private stdoutDone: Promise<void> = Promise.resolve()
  private stderrDone: Promise<void> = Promise.resolve()

  constructor(opts: GroupStdioOptions) {
    this.opts = opts
    this.graceMs = opts.closeGraceMs ?? 2000
    this.tail = new ByteTail(opts.stderrTailBytes ?? 65536)
    this.lines = new LineSplitter(opts.maxLineBytes ?? 10 * 1024 * 1024)
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  /**
   * The server's stderr (drained into the tail). With `pid`, it tells the SDK this is a
   * stdio transport: a server that does not answer the era probe in time is a 2025-era one.
   */
  get stderr(): NodeJS.ReadableStream | null {
    return this.child?.stderr ?? null
  }

  /** set when the process exited */
  get exit(): ProcessExit | null {
    return this.exitInfo
  }

  /**
   * Waits, at most `ms`, for the process to exit and for the rest of its stderr (a process
   * that dies during the handshake closes its pipes before Node reports the exit): then
   * `exit` and `stderrTail()` tell the whole story. True when it exited.
   */
  async exited(ms: number): Promise<boolean> {
    const until = Date.now() + ms
    if (!(await this.waitExit(ms))) return false
    await Promise.race([this.stderrDone, delay(Math.max(0, until - Date.now()))])
    return true
  }

  /** the last stderrTailBytes of stderr */
  stderrTail(): string {
    return this.tail.text()
  }

  /** how many bytes of stderr were received in all (the tail keeps only the last ones) */
  get stderrBytes(): number {
    return this.tail.bytesWritten
  }

  /** how many stdout lines were skipped because they were not JSON-RPC */
  get stdoutNoiseLines(): number {
    return this.noiseLines
  }

  /** the last few skipped stdout lines (about 4 KB) */
  stdoutNoiseTail(): string {
    return this.noise.text()
  }

  start(): Promise<void> {
    if (this.state !== 'new' || this.closing) {
      return Promise.reject(new Error('GroupStdioTransport already started (or closed)'))
    }
    this.state = 'starting'
    this.starting = this.spawnChild()
    return this.starting
  }

  private spawnChild(): Promise<void> {
    const { command, args, env, cwd } = this.opts
    if (cwd !== undefined && !fs.existsSync(cwd)) {
      this.state = 'failed'
      return Promise.reject(
        new Error(`Cannot start "${command}": its working directory ${cwd} does not exist`),
      )
    }
    let child: ChildProcess
    try {
      // cross-spawn: on Windows `npx` is `npx.cmd`, which Node refuses to spawn without a shell
      child = crossSpawn(command, args, {
        env,
        ...(cwd !== undefined ? { cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      })
    } catch (e) {
      this.state = 'failed'
      return Promise.reject(spawnFailure(this.opts.command, e as NodeJS.ErrnoException))
    }
    this.child = child
    this.readOutput(child)
    child.on('exit', (code, signal) => this.handleExit(code, signal))
    return this.whenSpawned(child)
  }

  /** stderr into its tail, stdout line by line into messages; the pipes' errors and ends */
  private readOutput(child: ChildProcess): void {
    const decoder = new StringDecoder('utf8')
    child.stderr?.on('data', (chunk: Buffer) => {
      this.tail.write(chunk)
      const text = decoder.write(chunk)
      if (text && this.opts.onStderr) this.safely(() => this.opts.onStderr?.(text))
    })
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.closeNotified) return
      this.lines.push(
        chunk,
        (line) => this.handleLine(line),
        (bytes, ends) => this.oversized(bytes, ends),
      )
    })
    this.stdoutDone = new Promise((resolve) => {
      if (!child.stdout) return resolve()
      child.stdout.once('close', resolve)
      child.stdout.once('error', () => resolve())
    })
    this.stderrDone = new Promise((resolve) => {
      if (!child.stderr) return resolve()
      child.stderr.once('close', resolve)
      child.stderr.once('error', () => resolve())
    })
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      // EPIPE and friends after the process went away are expected; exit reporting covers them
      stream?.on('error', (err: NodeJS.ErrnoException) => {
        if (
          this.state === 'running' &&
          !this.closing &&
          !['EPIPE', 'ECONNRESET', 'EOF'].includes(err.code ?? '')
        ) {
          this.onerror?.(err)
        }
      })
    }
  }

  /** resolves once the process runs (recorded in the registry); rejects if it cannot start */
  private whenSpawned(child: ChildProcess): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        if (this.state !== 'starting') return
        this.state = 'running'
        if (child.pid !== undefined) {
          const server = this.opts.serverName ?? path.basename(this.opts.command)
          const command = this.opts.command
          this.safely(() => this.opts.registry?.add(child.pid as number, { server, command }))
        }
        resolve()
      })
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (this.state === 'starting') {
          this.state = 'failed'
          reject(spawnFailure(this.opts.command, err))
        } else if (this.state === 'running') {
          this.onerror?.(err)
        }
      })
    })
  }

  private handleLine(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line
    const trimmed = text.trim()
    if (!trimmed) return
    let message: JSONRPCMessage
    try {
      if (!trimmed.startsWith('{')) throw new Error('not JSON')
      message = deserializeMessage(trimmed)
    } catch {
      this.recordNoise(text)
      return
    }
    this.inbox.push(message)
    if (this.delivering) return
    this.delivering = true
    this.deliverNext()
  }

  /**
   * One message per macrotask: the SDK handles notifications a microtask later but responses
   * at once, so a progress notification and the response right behind it in the same chunk
   * would otherwise arrive out of order (the last progress update lost).
   */
  private deliverNext(): void {
    const message = this.closeNotified ? undefined : this.inbox.shift()
    if (message === undefined) {
      this.delivering = false
      return
    }
    try {
      this.onmessage?.(message)
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)))
    }
    setImmediate(() => this.deliverNext())
  }

  /**
   * A message larger than Cairn reads: not parsed, and the rest of it skipped. When it is
   * the answer to a request, that request is answered at once with an error saying so,
   * instead of waiting for its timeout.
   */
  private oversized(bytes: number, ends: { head: string; tail: string }): void {
    this.recordNoise(`<a ${bytes}-byte message was too large and was dropped>`)
    const id = responseId(ends.head, ends.tail)
    if (id === null) return
    const mb = Math.round((this.opts.maxLineBytes ?? 10 * 1024 * 1024) / (1024 * 1024))
    this.handleLine(
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32603,
          message: `the server's answer was larger than ${mb} MB, the most Cairn reads, so it was not read`,
        },
      }),
    )
  }

  private recordNoise(line: string): void {
    this.noiseLines++
    const shown = line.length > NOISE_SHOWN_CHARS ? `${line.slice(0, NOISE_SHOWN_CHARS)}…` : line
    this.noise.write(`${shown}\n`)
    if (this.opts.onStdoutNoise) this.safely(() => this.opts.onStdoutNoise?.(shown))
  }

  private handleExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo || this.state === 'failed') return
    this.exitInfo = { code, signal }
    this.state = 'exited'
    const error = this.notRunningError()
    for (const fail of [...this.pendingSends]) fail(error)
    for (const wake of [...this.exitWaiters]) wake()
    this.finishing ??= this.finish()
  }

  /** After the exit: deliver the rest of stdout, report the close, sweep the group, unregister. */
  private async finish(): Promise<void> {
    await Promise.race([this.stdoutDone, delay(STDOUT_DRAIN_MS)])
    const until = Date.now() + STDOUT_DRAIN_MS
    while (this.delivering && Date.now() < until) await new Promise(setImmediate)
    this.notifyClose()
    const pid = this.child?.pid
    if (pid !== undefined) {
      // grandchildren may survive their parent: SIGTERM, then SIGKILL, the rest of the group
      if (process.platform !== 'win32') await terminateGroup(pid, { graceMs: this.graceMs })
      this.safely(() => this.opts.registry?.remove(pid))
    }
    for (const stream of [this.child?.stdin, this.child?.stdout, this.child?.stderr]) {
      stream?.destroy()
    }
  }

  private notifyClose(): void {
    if (this.closeNotified) return
    this.closeNotified = true
    this.onclose?.()
  }

  private notRunningError(): Error {
    const what = `the MCP server "${this.opts.serverName ?? path.basename(this.opts.command)}"`
    const why = this.exitInfo
      ? `the process ${describeExit(this.exitInfo)}`
      : this.state === 'failed'
        ? 'the process could not be started'
        : this.closing
          ? 'the connection was closed'
          : 'the process is not running'
    return new Error(`Cannot send to ${what}: ${why}`)
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin
      if (this.state !== 'running' || this.closing || !stdin || !stdin.writable) {
        reject(this.notRunningError())
        return
      }
      let settled = false
      const fail = (e: Error): void => {
        if (settled) return
        settled = true
        this.pendingSends.delete(fail)
        reject(e)
      }
      this.pendingSends.add(fail)
      stdin.write(serializeMessage(message), (err) => {
        if (err) return fail(this.exitInfo ? this.notRunningError() : err)
        if (settled) return
        settled = true
        this.pendingSends.delete(fail)
        resolve()
      })
    })
  }

  /** stdin EOF → grace → SIGTERM group → grace → SIGKILL group; then the group sweep. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutDown()
    return this.closing
  }

  /** Synchronous last resort (e.g. in an app-quit hook): SIGKILL the whole group now. */
  killNow(): void {
    const pid = this.child?.pid
    if (pid !== undefined && !this.exitInfo) signalGroup(pid, 'SIGKILL')
  }

  private async shutDown(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined)
    const child = this.child
    if (!child || this.state === 'failed' || child.pid === undefined) return
    if (!this.exitInfo) {
      this.safely(() => child.stdin?.end())
      if (!(await this.waitExit(this.graceMs))) {
        signalGroup(child.pid, 'SIGTERM')
        if (!(await this.waitExit(this.graceMs))) {
          signalGroup(child.pid, 'SIGKILL')
          await this.waitExit(Math.max(this.graceMs, 2000))
        }
      }
    }
    if (this.finishing) await this.finishing
    else this.notifyClose() // did not die even from SIGKILL (uninterruptible): report the close anyway
  }

  private waitExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return Promise.resolve(true)
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        this.exitWaiters.delete(wake)
        resolve(this.exitInfo !== null)
      }
      const timer = setTimeout(wake, ms)
      this.exitWaiters.add(wake)
    })
  }

  private safely(fn: () => void): void {
    try {
      fn()
    } catch {
      // a listener's or the registry's failure must not break the connection
    }
  }
}
