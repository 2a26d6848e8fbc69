/**
 * Signalling whole process groups: the one process killer, for stdio MCP servers and for
 * run_command (builtin-tools/spawn-group.ts). A stdio MCP server is spawned as the leader of its own
 * group (detached on POSIX), so `kill(-pid)` reaches the grandchildren that `npx`/`uvx`
 * start. On Windows there are no groups: `taskkill /T /F` ends the process tree.
 *
 * On Linux a killed grandchild can linger as a zombie until its new parent reaps it (in
 * containers PID 1 may never do that); liveness checks read /proc and count zombies as dead.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

const POLL_MS = 25
const DEFAULT_GRACE_MS = 2000

/** pid 0, 1 and negatives would address our own group or every process: never signal those. */
function validPid(pid: number): boolean {
  return Number.isInteger(pid) && pid > 1
}

interface ProcStat {
  state: string
  pgrp: number
  /** clock ticks from boot to the process's start */
  startTicks: number
}

/** Linux only: the state and process group of a pid from /proc/<pid>/stat, or null. */
function procStat(pid: number | string): ProcStat | null {
  let text: string
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // "pid (comm) state ppid pgrp ..." — comm may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const state = fields[0] ?? ''
  const pgrp = Number(fields[2])
  const startTicks = Number(fields[19])
  return { state, pgrp, startTicks }
}

const isZombie = (s: ProcStat | null): boolean => s !== null && (s.state === 'Z' || s.state === 'X')
const hasProc = (): boolean => process.platform === 'linux' && fs.existsSync('/proc/self/stat')

/** Whether `pid` exists (EPERM counts: it exists but is not ours); zombies count as dead. */
export function isAlive(pid: number): boolean {
  if (!validPid(pid)) return false
  try {
    process.kill(pid, 0)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return !(hasProc() && isZombie(procStat(pid)))
}

/** Linux only: the live (non-zombie) members of process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = []
  let names: string[]
  try {
    names = fs.readdirSync('/proc')
  } catch {
    return members
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    const stat = procStat(name)
    if (stat && stat.pgrp === pgid && !isZombie(stat)) members.push(Number(name))
  }
  return members
}

/** Whether any (non-zombie) process of group `pgid` is still running. */
export function isGroupAlive(pgid: number): boolean {
  if (!validPid(pgid)) return false
  if (process.platform === 'win32') return isAlive(pgid)
  try {
    process.kill(-pgid, 0)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return hasProc() ? groupMembers(pgid).length > 0 : true
}

/**
 * Sends `signal` to the process group led by `pid` (`kill(-pid)`); on Windows ends the
 * whole tree with `taskkill /T /F` whatever the signal. Returns whether anything was signalled.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  if (!validPid(pid)) return false
  if (process.platform === 'win32') {
    const r = spawnSync('taskkill', ['/PID', String(pid), '/T', '/F'], {
      windowsHide: true,
      stdio: 'ignore',
      timeout: 10_000,
    })
    return r.status === 0
  }
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false
  }
}

/** Polls until `check()` holds or `timeoutMs` passes; resolves with whether it held. */
export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() >= end) return false
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  return true
}

/**
 * SIGTERM the group, wait up to `graceMs` for it to go, then SIGKILL the group and wait
 * (bounded) for that too. Does nothing when no process of the group is alive.
 */
export async function terminateGroup(pid: number, opts: { graceMs?: number } = {}): Promise<void> {
  const graceMs = opts.graceMs ?? DEFAULT_GRACE_MS
  if (!isGroupAlive(pid)) return
  signalGroup(pid, 'SIGTERM')
  if (await waitUntil(() => !isGroupAlive(pid), graceMs)) return
  signalGroup(pid, 'SIGKILL')
  await waitUntil(() => !isGroupAlive(pid), Math.max(graceMs, 1000))
}

/**
 * Linux only: the live processes whose environment holds `name=value` (a marker set on a
 * command's shell, inherited by everything it starts, also by what left its process group
 * with `setsid` or a double fork). Processes of other users cannot be read and are skipped.
 */
export function markedProcesses(name: string, value: string): number[] {
  if (!hasProc()) return []
  const needle = Buffer.from(`${name}=${value}\0`)
  const found: number[] = []
  let names: string[]
  try {
    names = fs.readdirSync('/proc')
  } catch {
    return found
  }
  for (const entry of names) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`)
      if (environ.indexOf(needle) !== -1 && !isZombie(procStat(entry))) found.push(Number(entry))
    } catch {
      // exited meanwhile, or not ours
    }
  }
  return found
}

/** Sends `signal` to each of `pids` (single processes, not groups); gone ones are skipped. */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    if (!validPid(pid) || pid === process.pid) continue
    try {
      process.kill(pid, signal)
    } catch {
      // gone
    }
  }
}

let bootId: string | null | undefined

/** Linux: this boot's id (so a start time from before a reboot never matches). */
function linuxBootId(): string | null {
  if (bootId === undefined) {
    try {
      bootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    } catch {
      bootId = null
    }
  }
  return bootId
}

/**
 * When `pid` started, as an opaque string that differs for a process that reuses the pid:
 * on Linux the boot id and the start time in clock ticks from /proc, elsewhere on POSIX
 * what `ps -o lstart=` says (to the second). Null when unknown (gone, zombie, Windows).
 */
export function processStartTime(pid: number): string | null {
  if (!validPid(pid)) return null
  if (hasProc()) {
    const stat = procStat(pid)
    if (!stat || isZombie(stat) || !Number.isFinite(stat.startTicks)) return null
    return `linux:${linuxBootId() ?? ''}:${stat.startTicks}`
  }
  if (process.platform === 'win32') return null
  const r = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
    encoding: 'utf8',
    timeout: 5000,
    env: { PATH: '/bin:/usr/bin', LC_ALL: 'C' },
  })
  const out = r.status === 0 ? r.stdout.trim() : ''
  return out === '' ? null : `ps:${out}`
}
