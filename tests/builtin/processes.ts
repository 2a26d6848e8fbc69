/**
 * Processes of this system seen from outside, for the run_command tests (Linux: through
 * /proc): whether one is alive, its group, finding one by its command line, and killing
 * after each test what a test started.
 */
import type { ChildProcess } from 'node:child_process'
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import { afterEach } from 'vitest'

/** Whether a process exists and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  if (process.platform !== 'linux') return true
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** The process group of a pid of this system (Linux). */
export function pgidOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
}

export async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A `sleep` duration no other process on this machine is likely to use. */
export const uniqueSleep = (): string => `sleep ${randomInt(100_000, 999_999)}`

/** The live processes of this system whose whole command line is `line`. */
export function byCmdline(line: string): number[] {
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()
      if (cmd === line && alive(Number(entry))) found.push(Number(entry))
    } catch {
      // exited meanwhile
    }
  }
  return found
}

/**
 * Kills, after each test, the child processes it pushed to `children` and the processes
 * `theProcess` found.
 */
export function useStartedProcesses(): {
  children: ChildProcess[]
  /** waits for the one process running `line` and records it for the clean-up */
  theProcess(line: string): Promise<number>
} {
  const children: ChildProcess[] = []
  const started: number[] = []
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL')
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone, as it should be
      }
    }
  })
  return {
    children,
    async theProcess(line) {
      let pid = 0
      await until(() => (pid = byCmdline(line)[0] ?? 0) > 0, `a process running "${line}"`)
      started.push(pid)
      return pid
    },
  }
}
