/**
 * Runs one shell command in its own process group, so that a timeout or an abort stops
 * the command and everything it started: SIGTERM to the whole group, then SIGKILL after a
 * grace period. The promise settles promptly after a stop (within the grace period plus
 * a short wait), whatever the processes do. Output (stdout and stderr interleaved as
 * received) is kept within a budget: its head and its tail.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

const isWindows = process.platform === 'win32'
/** after the shell exits, how long to wait for its output pipes to close */
const DRAIN_MS = 300
/** after SIGKILL, how long to wait before settling anyway */
const AFTER_KILL_MS = 500

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

export function runInProcessGroup(opts: RunOptions): Promise<RunResult> {
  const grace = opts.killGraceMs ?? 2000
  const inv = shellInvocation(opts.command, opts.shell, opts.env)
  return new Promise<RunResult>((resolve) => {
    if (opts.signal.aborted) {
      resolve({ ...empty(), stopped: 'abort' })
      return
    }
    const output = new HeadTail(opts.maxOutputChars)
    let child: ChildProcess
    try {
      child = spawn(inv.file, inv.args, {
        cwd: opts.cwd,
        env: opts.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: !isWindows,
        windowsHide: true,
        windowsVerbatimArguments: inv.verbatim,
      })
    } catch (e) {
      resolve({ ...empty(), spawnError: e as Error })
      return
    }
    const pid = child.pid
    let exitCode: number | null = null
    let exitSignal: NodeJS.Signals | null = null
    let stopped: RunResult['stopped'] = null
    let spawnError: Error | null = null
    let settled = false
    const timers = new Set<NodeJS.Timeout>()
    const later = (ms: number, f: () => void): void => {
      const t = setTimeout(() => {
        timers.delete(t)
        f()
      }, ms)
      timers.add(t)
    }

    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8')
      stream?.on('data', (chunk: Buffer) => output.push(decoder.write(chunk)))
      stream?.on('end', () => output.push(decoder.end()))
      stream?.on('error', () => {})
    }

    const finish = (): void => {
      if (settled) return
      settled = true
      opts.signal.removeEventListener('abort', onAbort)
      clearTimeout(timeout)
      child.stdout?.destroy()
      child.stderr?.destroy()
      // keep the SIGKILL timer if some process of the group may still be alive
      if (!stopped || !groupAlive(pid)) for (const t of timers) clearTimeout(t)
      const { text, cut } = output.result()
      resolve({ output: text, cutChars: cut, exitCode, exitSignal, stopped, spawnError, pid })
    }

    const stop = (why: 'timeout' | 'abort'): void => {
      if (stopped || settled) return
      // the shell has already exited, only its output is still draining: report its end
      if (exitCode !== null || exitSignal !== null) return finish()
      stopped = why
      killGroup(pid, 'SIGTERM')
      later(grace, () => {
        killGroup(pid, 'SIGKILL')
        later(AFTER_KILL_MS, finish)
      })
    }
    const onAbort = (): void => stop('abort')
    const timeout = setTimeout(() => stop('timeout'), opts.timeoutMs)
    opts.signal.addEventListener('abort', onAbort, { once: true })

    child.on('error', (e) => {
      spawnError = e
      finish()
    })
    child.on('exit', (code, sig) => {
      exitCode = code
      exitSignal = sig
      // processes left in the background may hold the pipes open: do not wait for them
      if (!stopped) later(DRAIN_MS, finish)
    })
    // after a stop, settle as soon as the whole group is gone (the SIGKILL timer is the bound)
    const finishWhenGroupGone = (): void => {
      if (settled) return
      if (groupAlive(pid)) later(50, finishWhenGroupGone)
      else finish()
    }
    child.on('close', () => (stopped ? finishWhenGroupGone() : finish()))
  })
}

function empty(): RunResult {
  return {
    output: '',
    cutChars: 0,
    exitCode: null,
    exitSignal: null,
    stopped: null,
    spawnError: null,
    pid: undefined,
  }
}

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return
  if (isWindows) {
    // no process groups: kill the tree
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on(
      'error',
      () => {},
    )
    return
  }
  try {
    process.kill(-pid, sig)
  } catch {
    // the group is gone
  }
}

/**
 * Whether any process of the group still runs (POSIX; on Windows: assume not). A zombie
 * (dead, not yet reaped by init) does not count: on Linux, /proc tells them apart.
 */
function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined || isWindows) return false
  try {
    process.kill(-pid, 0)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
  return process.platform === 'linux' ? liveMemberOnLinux(pid) : true
}

function liveMemberOnLinux(pgid: number): boolean {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return true
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // after the command name in parentheses: state, ppid, pgrp, ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true
    } catch {
      // exited meanwhile
    }
  }
  return false
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
