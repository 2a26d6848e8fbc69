/**
 * The pid file of running process groups (`<dataDir>/mcp-processes.json`): stdio MCP servers
 * and run_command's commands. They run detached in their own process group, so they can
 * outlive a Cairn that crashes or is killed; the next start kills the groups whose owner is
 * gone. A group is killed only when it is really the one recorded: its leader's start time
 * (processStartTime) must match the recorded one, so a pid reused by another program is
 * left alone. When the leader is gone, only the processes that carry the entry's
 * environment marker (a random value given to one command, Linux) are killed. Entries
 * written before start times were recorded fall back to comparing the command line.
 * The desktop app and the CLI may share the file: every read-modify-write holds a lock, and
 * the file is replaced atomically.
 */
import fs from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../atomic-file'
import { PRIVATE_DIR_MODE } from '../data-dir'
import { withFileLockSync } from '../settings/file-lock'
import {
  groupMembers,
  isAlive,
  isGroupAlive,
  markedProcesses,
  processStartTime,
  signalEach,
  terminateGroup,
  waitUntil,
} from './process-tree'

const registryEntrySchema = z.object({
  /** the Cairn process that started the server */
  ownerPid: z.number().int(),
  /** the server's pid, which is also its process group id */
  pid: z.number().int(),
  server: z.string(),
  command: z.string(),
  startedAt: z.string(),
  host: z.string().optional(),
  /** the leader's start time (processStartTime), to tell it from a process that reuses the pid */
  startTime: z.string().optional(),
  /** `NAME=value`: the environment marker every process of the group inherited */
  marker: z.string().optional(),
})

export type RegistryEntry = z.infer<typeof registryEntrySchema>

/** How long a leftover group gets after SIGTERM before SIGKILL. */
const LEFTOVER_GRACE_MS = 500

/** Linux: the NUL-separated command line of `pid`, or null when it cannot be read. */
function cmdline(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
  } catch {
    return null
  }
}

/**
 * Whether the group `entry.pid` still looks like the server that was recorded (the pid may
 * have been reused). On Linux the leader's — or, when the leader is gone, some member's —
 * command line must contain the command's basename; elsewhere it is accepted.
 */
function looksLikeServer(entry: RegistryEntry, members: () => number[]): boolean {
  if (process.platform !== 'linux' || !fs.existsSync('/proc/self/cmdline')) return true
  const name = path.basename(entry.command).replace(/\.(exe|cmd|bat)$/i, '')
  if (!name) return false
  const leader = cmdline(entry.pid)
  if (leader !== null) return leader.includes(name)
  return members().some((pid) => cmdline(pid)?.includes(name) ?? false)
}

/** Kills what is left of one entry's group, if it is really the one recorded. */
async function killLeftover(e: RegistryEntry): Promise<boolean> {
  const marked = (): number[] => {
    const at = e.marker?.indexOf('=') ?? -1
    return e.marker && at > 0 ? markedProcesses(e.marker.slice(0, at), e.marker.slice(at + 1)) : []
  }
  let killed = false
  if (e.startTime === undefined && e.marker !== undefined) {
    // a command's group recorded where no start time can be read (Windows): not provably ours
  } else if (e.startTime === undefined) {
    if (!isGroupAlive(e.pid)) return false
    if (!looksLikeServer(e, () => groupMembers(e.pid))) return false
    await terminateGroup(e.pid, { graceMs: LEFTOVER_GRACE_MS })
    killed = true
  } else if (processStartTime(e.pid) === e.startTime) {
    await terminateGroup(e.pid, { graceMs: LEFTOVER_GRACE_MS })
    killed = true
  }
  // what carries the marker is ours whatever its group: what left it, or a group whose leader is gone
  const rest = marked()
  if (rest.length === 0) return killed
  signalEach(rest, 'SIGTERM')
  if (!(await waitUntil(() => rest.every((pid) => !isAlive(pid)), LEFTOVER_GRACE_MS))) {
    signalEach(marked(), 'SIGKILL')
  }
  return true
}

export class ProcessRegistry {
  private readonly lockPath: string
  /** the last error from reading or writing the file (the registry never throws) */
  lastError: Error | null = null

  constructor(readonly file: string) {
    this.lockPath = `${file}.lock`
  }

  add(pid: number, info: { server: string; command: string; marker?: string }): void {
    const startTime = processStartTime(pid)
    const entry: RegistryEntry = {
      ownerPid: process.pid,
      pid,
      server: info.server,
      command: info.command,
      startedAt: new Date().toISOString(),
      host: hostname(),
      ...(startTime !== null ? { startTime } : {}),
      ...(info.marker !== undefined ? { marker: info.marker } : {}),
    }
    this.update((entries) => [...entries.filter((e) => e.pid !== pid), entry])
  }

  remove(pid: number): void {
    this.update((entries) => entries.filter((e) => !(e.pid === pid && e.ownerPid === process.pid)))
  }

  /** The recorded entries (empty when the file is missing or unreadable). */
  entries(): RegistryEntry[] {
    try {
      return this.read()
    } catch (e) {
      this.lastError = e as Error
      return []
    }
  }

  /**
   * Kills the groups recorded by Cairn processes that are no longer running (SIGTERM, a short
   * grace, SIGKILL), unless the pid now belongs to something else; drops those entries.
   * Returns how many groups were killed.
   */
  async cleanupLeftovers(): Promise<number> {
    const here = hostname()
    const isLeftover = (e: RegistryEntry): boolean =>
      (e.host === undefined || e.host === here) &&
      e.ownerPid !== process.pid &&
      !isAlive(e.ownerPid)
    let leftovers: RegistryEntry[]
    try {
      leftovers = withFileLockSync(this.lockPath, () => this.read()).filter(isLeftover)
    } catch (e) {
      this.lastError = e as Error
      return 0
    }
    if (leftovers.length === 0) return 0
    const killed = await Promise.all(leftovers.map(killLeftover))
    const done = new Set(leftovers.map((e) => `${e.ownerPid}:${e.pid}`))
    this.update((entries) => entries.filter((e) => !done.has(`${e.ownerPid}:${e.pid}`)))
    return killed.filter(Boolean).length
  }

  private read(): RegistryEntry[] {
    let text: string
    try {
      text = fs.readFileSync(this.file, 'utf8')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw e
    }
    try {
      const data = JSON.parse(text) as unknown
      const list = Array.isArray(data) ? data : (data as { processes?: unknown })?.processes
      if (!Array.isArray(list)) return []
      // an entry that is not one (written by hand, or by a future version) is left out
      return list.flatMap((item) => {
        const entry = registryEntrySchema.safeParse(item)
        return entry.success ? [entry.data] : []
      })
    } catch {
      return [] // a corrupt file is rewritten by the next update
    }
  }

  private update(fn: (entries: RegistryEntry[]) => RegistryEntry[]): void {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE })
      withFileLockSync(this.lockPath, () => {
        const next = fn(this.read())
        writeFileAtomicSync(this.file, `${JSON.stringify(next, null, 2)}\n`)
      })
    } catch (e) {
      this.lastError = e as Error
    }
  }
}
