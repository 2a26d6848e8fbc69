/**
 * Runs one shell command in its own process group, so that a timeout or an abort stops
 * the command and everything it started: SIGTERM to the whole group, then SIGKILL after a
 * grace period. The promise settles promptly after a stop (within the grace period plus
 * a short wait), whatever the processes do. Output (stdout and stderr interleaved as
 * received) is kept within a budget: its head and its tail.
 *
 * Nothing a command starts outlives it. On Linux, where it can, the command runs in its
 * own PID namespace (containment.ts): when its shell exits, or Cairn dies, the kernel
 * kills every process of the namespace, wherever it went. Otherwise (the process-group
 * containment): when its shell exits, what it left running in the background (`&`,
 * `nohup`) is stopped the same way, and so is what left the group (`setsid`, a double
 * fork): on Linux every process whose environment carries the command's marker
 * (RUN_MARKER, inherited by all its descendants) is found through /proc; a process that
 * also clears its environment (`env -i`) escapes. When the host process exits, whatever is
 * still running is killed. macOS has no /proc: there the process group is stopped, and a
 * process that left it with `setsid` survives. Windows has no process groups: `taskkill
 * /T` ends the shell's tree, and a process whose parent already exited is not found.
 * With a process registry (process-registry.ts) each command's group, start time and
 * marker are recorded, so that the next start kills what a Cairn that was killed left;
 * not under a containment whose processes die with Cairn (`diesWithCairn`).
 *
 * The shell is started through cross-spawn, which handles Windows' `.cmd` launchers.
 */
import { randomBytes } from 'node:crypto'
import type { ChildProcess } from 'node:child_process'
import crossSpawn from 'cross-spawn'
import { StringDecoder } from 'node:string_decoder'
import fs from 'node:fs'
import path from 'node:path'
import { isGroupAlive, markedProcesses, signalEach, signalGroup } from '../mcp/process-tree'
import type { ProcessRegistry } from '../mcp/process-registry'
import { containment, type Containment, type ContainmentKind } from './containment'

const isWindows = process.platform === 'win32'
/** after the shell exits, how long to wait for its output pipes to close */
const DRAIN_MS = 300
/** after SIGKILL, how long to wait before settling anyway */
const AFTER_KILL_MS = 500
/** the environment variable that marks every process a command starts */
export const RUN_MARKER = 'CAIRN_COMMAND_RUN'

/** commands whose processes may still run: marker → the group's id and its registry */
const running = new Map<
  string,
  { pid: number | undefined; registry: ProcessRegistry | undefined }
>()
let exitHookInstalled = false

/** Kills, synchronously, everything the commands still running have started. */
function killAllOnExit(): void {
  for (const [marker, { pid }] of running) stopAll(pid, marker, 'SIGKILL')
  running.clear()
}

function stopAll(pid: number | undefined, marker: string, sig: NodeJS.Signals): void {
  if (pid !== undefined) signalGroup(pid, sig)
  signalEach(markedProcesses(RUN_MARKER, marker), sig)
}

/**
 * Stops what a command left running after its shell exited: SIGTERM, then SIGKILL after
 * the grace period. Runs in the background; the command's result does not wait for it.
 */
function reapLeftovers(pid: number | undefined, marker: string, graceMs: number): void {
  // the second pass always runs: a process caught in the middle of an exec can be missed once
  if (pid !== undefined && groupAlive(pid)) signalGroup(pid, 'SIGTERM')
  signalEach(markedProcesses(RUN_MARKER, marker), 'SIGTERM')
  const t = setTimeout(() => {
    stopAll(pid, marker, 'SIGKILL')
    forget(pid, marker)
  }, graceMs)
  t.unref()
}

/** A command nothing of which runs any more: not killed at exit, its record removed. */
function forget(pid: number | undefined, marker: string): void {
  const entry = running.get(marker)
  running.delete(marker)
  if (pid !== undefined) entry?.registry?.remove(pid)
}

export interface RunOptions {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  /** the shell program (default: $SHELL or /bin/sh; %ComSpec% or cmd.exe on Windows) */
  shell?: string | undefined
  timeoutMs: number
  signal: AbortSignal
  maxOutputChars: number
  killGraceMs?: number
  /** how background processes are contained (default: the best this system allows, found once) */
  containment?: Containment
  /** records each command's process group, so that a later start can kill what a crash left */
  registry?: ProcessRegistry
}

export interface RunResult {
  output: string
  /** characters cut from the middle of the output */
  cutChars: number
  exitCode: number | null
  exitSignal: NodeJS.Signals | null
  /** why it was stopped, if it was */
  stopped: 'timeout' | 'abort' | null
  /** the shell could not be started */
  spawnError: Error | null
  pid: number | undefined
  /** how the command's background processes were contained */
  containment: ContainmentKind
  /** the containment's description, for a log line */
  containmentNote: string
}

export function shellInvocation(
  command: string,
  shell: string | undefined,
  env: NodeJS.ProcessEnv,
): { file: string; args: string[]; verbatim: boolean } {
  if (isWindows) {
    const file = shell ?? env['ComSpec'] ?? 'cmd.exe'
    return { file, args: ['/d', '/s', '/c', `"${command}"`], verbatim: true }
  }
  return { file: shell ?? env['SHELL'] ?? '/bin/sh', args: ['-c', command], verbatim: false }
}

/**
 * Whether `file` can be run: under a PID namespace the shell is started by the namespace's
 * init, so a missing shell must be noticed here to be reported as one.
 */
function findShell(file: string, env: NodeJS.ProcessEnv): boolean {
  const runnable = (p: string): boolean => {
    try {
      fs.accessSync(p, fs.constants.X_OK)
      return fs.statSync(p).isFile()
    } catch {
      return false
    }
  }
  if (file.includes('/')) return runnable(file)
  return (env['PATH'] ?? '')
    .split(path.delimiter)
    .some((d) => d !== '' && runnable(path.join(d, file)))
}

export async function runInProcessGroup(opts: RunOptions): Promise<RunResult> {
  if (opts.signal.aborted) return { ...empty(NOT_STARTED), stopped: 'abort' }
  const contained = opts.containment ?? (isWindows ? null : await containment())
  return runContained(opts, contained ?? WINDOWS)
}

function runContained(opts: RunOptions, contained: Containment): Promise<RunResult> {
  const marker = randomBytes(12).toString('hex')
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.on('exit', killAllOnExit)
  }
  return new Promise<RunResult>((resolve) => {
    if (opts.signal.aborted) return resolve({ ...empty(contained), stopped: 'abort' })
    const started = spawnShell(opts, contained, marker)
    if (started instanceof Error) return resolve({ ...empty(contained), spawnError: started })
    const { child, file } = started
    // what dies with Cairn leaves nothing for the next start: no file written per command
    const registry = contained.diesWithCairn ? undefined : opts.registry
    running.set(marker, { pid: child.pid, registry })
    if (child.pid !== undefined)
      registry?.add(child.pid, {
        server: 'run_command',
        command: file,
        marker: `${RUN_MARKER}=${marker}`,
      })
    new CommandRun(opts, contained, child, marker, resolve).watch()
  })
}

/**
 * Starts the shell with the command, inside the containment, its processes marked; the
 * error when it cannot start.
 */
function spawnShell(
  opts: RunOptions,
  contained: Containment,
  marker: string,
): { child: ChildProcess; file: string } | Error {
  const inv = shellInvocation(opts.command, opts.shell, opts.env)
  const [file, args] =
    contained.prefix.length > 0
      ? [contained.prefix[0] as string, [...contained.prefix.slice(1), inv.file, ...inv.args]]
      : [inv.file, inv.args]
  if (contained.prefix.length > 0 && !findShell(inv.file, opts.env))
    return Object.assign(new Error(`spawn ${inv.file} ENOENT`), { code: 'ENOENT' })
  try {
    const child = crossSpawn(file, args, {
      cwd: opts.cwd,
      env: { ...opts.env, [RUN_MARKER]: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: !isWindows,
      windowsHide: true,
      windowsVerbatimArguments: inv.verbatim,
    })
    return { child, file }
  } catch (e) {
    return e as Error
  }
}

/**
 * One started command until it settles: its output kept, stopped at the timeout or on
 * abort (SIGTERM, then SIGKILL after the grace period), and what it left running reaped.
 */
class CommandRun {
  private exitCode: number | null = null
  private exitSignal: NodeJS.Signals | null = null
  private stopped: RunResult['stopped'] = null
  private spawnError: Error | null = null
  private settled = false
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly output: HeadTail
  private readonly pid: number | undefined
  private readonly grace: number
  private timeout: NodeJS.Timeout | undefined
  private readonly onAbort = (): void => this.stop('abort')

  constructor(
    private readonly opts: RunOptions,
    private readonly contained: Containment,
    private readonly child: ChildProcess,
    private readonly marker: string,
    private readonly resolve: (result: RunResult) => void,
  ) {
    this.output = new HeadTail(opts.maxOutputChars)
    this.pid = child.pid
    this.grace = opts.killGraceMs ?? 2000
  }

  watch(): void {
    const { child, opts } = this
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8')
      stream?.on('data', (chunk: Buffer) => this.output.push(decoder.write(chunk)))
      stream?.on('end', () => this.output.push(decoder.end()))
      stream?.on('error', () => {})
    }
    this.timeout = setTimeout(() => this.stop('timeout'), opts.timeoutMs)
    opts.signal.addEventListener('abort', this.onAbort, { once: true })
    child.on('error', (e) => {
      this.spawnError = e
      this.finish()
    })
    child.on('exit', (code, sig) => {
      this.exitCode = code
      this.exitSignal = sig
      // processes left in the background may hold the pipes open: do not wait for them
      if (!this.stopped) this.later(DRAIN_MS, () => this.finish())
    })
    child.on('close', () => (this.stopped ? this.finishWhenGroupGone() : this.finish()))
  }

  private later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t)
      f()
    }, ms)
    this.timers.add(t)
  }

  private stop(why: 'timeout' | 'abort'): void {
    if (this.stopped || this.settled) return
    // the shell has already exited, only its output is still draining: report its end
    if (this.exitCode !== null || this.exitSignal !== null) return this.finish()
    this.stopped = why
    stopAll(this.pid, this.marker, 'SIGTERM')
    this.later(this.grace, () => {
      stopAll(this.pid, this.marker, 'SIGKILL')
      this.later(AFTER_KILL_MS, () => this.finish())
    })
  }

  /** after a stop, settle as soon as the whole group is gone (the SIGKILL timer is the bound) */
  private finishWhenGroupGone(): void {
    if (this.settled) return
    if (groupAlive(this.pid)) this.later(50, () => this.finishWhenGroupGone())
    else this.finish()
  }

  private finish(): void {
    if (this.settled) return
    this.settled = true
    const { pid, marker, contained } = this
    this.opts.signal.removeEventListener('abort', this.onAbort)
    clearTimeout(this.timeout)
    this.child.stdout?.destroy()
    this.child.stderr?.destroy()
    // keep the SIGKILL timer if some process of the group may still be alive
    if (!this.stopped || !groupAlive(pid)) for (const t of this.timers) clearTimeout(t)
    // what the command left running (in the group or escaped from it) is stopped too; a
    // namespace whose unshare exited by itself is empty (it waited for the init, whose end
    // killed every other process of the namespace): no /proc scan for its marker
    if (contained.kind === 'pid-namespace' && this.exitCode !== null && !this.stopped)
      forget(pid, marker)
    else reapLeftovers(pid, marker, this.grace)
    const { text, cut } = this.output.result()
    this.resolve({
      output: text,
      cutChars: cut,
      exitCode: this.exitCode,
      exitSignal: this.exitSignal,
      stopped: this.stopped,
      spawnError: this.spawnError,
      pid,
      containment: contained.kind,
      containmentNote: contained.description,
    })
  }
}

/** Windows has neither namespaces nor process groups (see the top of this file) */
const WINDOWS: Containment = {
  kind: 'process-group',
  prefix: [],
  description: "run_command ends the shell's process tree with taskkill on Windows",
}

/** for a command cancelled before it started (nothing was contained) */
const NOT_STARTED: Containment = { kind: 'process-group', prefix: [], description: '' }

function empty(contained: Containment): RunResult {
  return {
    containment: contained.kind,
    containmentNote: contained.description,
    output: '',
    cutChars: 0,
    exitCode: null,
    exitSignal: null,
    stopped: null,
    spawnError: null,
    pid: undefined,
  }
}

/** Whether any (non-zombie) process of the group still runs (on Windows: assume not). */
function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined || isWindows) return false
  return isGroupAlive(pid)
}

/** Keeps the first and the last part of a long output, and counts what is between. */
export class HeadTail {
  private head = ''
  private tail = ''
  private total = 0
  private readonly headMax: number
  private readonly tailMax: number

  constructor(private readonly max: number) {
    this.headMax = Math.floor(max / 2)
    this.tailMax = max - this.headMax
  }

  push(s: string): void {
    if (s === '') return
    this.total += s.length
    if (this.head.length < this.headMax) {
      const take = this.headMax - this.head.length
      this.head += s.slice(0, take)
      s = s.slice(take)
    }
    if (s === '') return
    this.tail += s
    if (this.tail.length > this.tailMax * 2) this.tail = this.tail.slice(-this.tailMax)
  }

  result(): { text: string; cut: number } {
    if (this.total <= this.max) return { text: this.head + this.tail, cut: 0 }
    const tail = this.tail.slice(-this.tailMax)
    const cut = this.total - this.head.length - tail.length
    return {
      text: `${this.head}\n[... ${cut} characters cut from the middle of the output ...]\n${tail}`,
      cut,
    }
  }
}
