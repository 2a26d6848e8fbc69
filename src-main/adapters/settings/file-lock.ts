/**
 * A small cross-process lock: a lock file created exclusively (`wx`) that holds the
 * owner's pid, host, time and a token. A lock whose owner is dead (same host), or that
 * is older than `staleMs`, is taken over. Waiting is bounded and ends in a clear error.
 *
 * The lock guards short critical sections (read-modify-write of a small JSON file), so
 * the synchronous variant sleeps with `Atomics.wait` between attempts.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { hostname } from 'node:os'
import { ExpectedError } from '../../core/errors'
import { PRIVATE_FILE_MODE } from '../data-dir'

export interface FileLockOptions {
  /** a lock older than this is taken over (default 10 s) */
  staleMs?: number
  /** give up after waiting this long (default 5 s) */
  timeoutMs?: number
}

const DEFAULT_STALE_MS = 10_000
const DEFAULT_TIMEOUT_MS = 5_000
/** a lock file that cannot be parsed (its owner died while writing it) goes stale sooner */
const UNREADABLE_STALE_MS = 1_000

/** Another process held the lock too long: `busy`, with the lock file to delete if none is. */
export class FileLockTimeoutError extends ExpectedError<'busy'> {
  constructor(
    readonly lockPath: string,
    holder: string,
    timeoutMs: number,
  ) {
    super(
      'busy',
      `Timed out after ${timeoutMs} ms waiting for the lock ${lockPath} (${holder}). ` +
        'If no other Cairn process is running, delete that file.',
    )
    this.name = 'FileLockTimeoutError'
  }
}

interface LockInfo {
  pid: number
  host: string
  time: number
  token: string
}

/** Locks this process holds: a synchronous re-entry would otherwise wait on itself. */
const heldHere = new Set<string>()

/** Whether this process holds `lockPath` right now (an async holder may be mid-way). */
export function isLockHeldHere(lockPath: string): boolean {
  return heldHere.has(lockPath)
}

function parseLock(text: string): LockInfo | null {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>
    if (typeof v.pid === 'number' && typeof v.time === 'number' && typeof v.token === 'string') {
      return { pid: v.pid, time: v.time, token: v.token, host: String(v.host ?? '') }
    }
  } catch {
    // unreadable: judged by the file's age
  }
  return null
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function describe(info: LockInfo | null): string {
  if (!info) return 'held by an unknown process'
  return `held by pid ${info.pid} on ${info.host || 'an unknown host'} since ${new Date(info.time).toISOString()}`
}

type Attempt = { ok: true; token: string } | { ok: false; holder: string }

/** One non-blocking attempt: create the lock, or take over a stale one. */
function tryAcquire(lockPath: string, staleMs: number): Attempt {
  const token = randomUUID()
  const info: LockInfo = { pid: process.pid, host: hostname(), time: Date.now(), token }
  try {
    // private from the start, like everything in the data directory
    const fd = fs.openSync(lockPath, 'wx', PRIVATE_FILE_MODE)
    try {
      fs.writeSync(fd, JSON.stringify(info))
    } finally {
      fs.closeSync(fd)
    }
    return { ok: true, token }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  let text: string
  let mtimeMs: number
  try {
    text = fs.readFileSync(lockPath, 'utf8')
    mtimeMs = fs.statSync(lockPath).mtimeMs
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: false, holder: 'just released' }
    throw e
  }
  const holder = parseLock(text)
  const age = Date.now() - (holder?.time ?? mtimeMs)
  const sameHost = holder?.host === hostname()
  const stale = holder
    ? age > staleMs ||
      (sameHost && holder.pid === process.pid && !heldHere.has(lockPath)) ||
      (sameHost && holder.pid !== process.pid && !isAlive(holder.pid))
    : age > UNREADABLE_STALE_MS
  if (stale) takeOver(lockPath, text)
  return { ok: false, holder: describe(holder) }
}

/**
 * Removes a stale lock without ever removing a fresh one: the lock is moved aside and
 * its content compared with what was judged stale; a fresh lock moved by mistake (its
 * owner replaced the stale one in between) is put back unless another has been created.
 */
function takeOver(lockPath: string, staleText: string): void {
  const aside = `${lockPath}.stale-${process.pid}-${randomUUID()}`
  try {
    fs.renameSync(lockPath, aside)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
    throw e
  }
  try {
    if (fs.readFileSync(aside, 'utf8') !== staleText) {
      try {
        fs.linkSync(aside, lockPath)
      } catch {
        // another lock was created meanwhile; nothing more can be done safely
      }
    }
  } finally {
    fs.rmSync(aside, { force: true })
  }
}

function release(lockPath: string, token: string): void {
  heldHere.delete(lockPath)
  try {
    const info = parseLock(fs.readFileSync(lockPath, 'utf8'))
    // Only our own lock: if it was taken over, the file is someone else's now.
    if (info?.token === token) fs.unlinkSync(lockPath)
  } catch {
    // already gone
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms)
}

function nextDelay(delay: number): number {
  return Math.min(50, delay * 1.5) * (0.75 + Math.random() * 0.5)
}

/** Runs `fn` while holding `lockPath`, waiting (synchronously, bounded) for it. */
export function withFileLockSync<T>(lockPath: string, fn: () => T, opts: FileLockOptions = {}): T {
  if (heldHere.has(lockPath)) {
    throw new Error(`The lock ${lockPath} is already held by this process (re-entrant use)`)
  }
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const deadline = Date.now() + timeoutMs
  let delay = 2
  for (;;) {
    const attempt = tryAcquire(lockPath, staleMs)
    if (attempt.ok) {
      heldHere.add(lockPath)
      try {
        return fn()
      } finally {
        release(lockPath, attempt.token)
      }
    }
    if (Date.now() >= deadline) throw new FileLockTimeoutError(lockPath, attempt.holder, timeoutMs)
    sleepSync(delay)
    delay = nextDelay(delay)
  }
}

/** Runs `fn` while holding `lockPath`; waits asynchronously (bounded) for it. */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => T | Promise<T>,
  opts: FileLockOptions = {},
): Promise<T> {
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const deadline = Date.now() + timeoutMs
  let delay = 2
  for (;;) {
    const attempt = heldHere.has(lockPath)
      ? ({ ok: false, holder: 'held by this process' } as const)
      : tryAcquire(lockPath, staleMs)
    if (attempt.ok) {
      heldHere.add(lockPath)
      try {
        return await fn()
      } finally {
        release(lockPath, attempt.token)
      }
    }
    if (Date.now() >= deadline) throw new FileLockTimeoutError(lockPath, attempt.holder, timeoutMs)
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = nextDelay(delay)
  }
}
