/**
 * One turn per session across processes: the desktop app, browser mode and the CLI share a
 * database, so the process that runs a session's turn holds a lease on it in SQLite (table
 * `session_leases`, schema v6). A lease names its owner (process id, a random id for this
 * store, the host kind) and is renewed by a heartbeat; a lease whose heartbeat is older than
 * `staleAfterMs`, or whose process has gone (same machine), is taken over.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Database, Statement } from 'better-sqlite3'
import type {
  LeaseHolder,
  LeaseResult,
  SessionLease,
  SessionLeases as SessionLeasesPort,
} from '../../core/service-ports'

export interface SessionLeasesOptions {
  /** a lease not renewed for this long is stale (default 30 s) */
  staleAfterMs?: number
  /** how often a held lease is renewed (default 5 s) */
  heartbeatMs?: number
  now?: () => number
  /** whether a process of this machine is running (default: signal 0) */
  isAlive?: (pid: number) => boolean
}

interface LeaseRow {
  session_id: string
  owner_pid: number
  owner_instance: string
  owner_host: string
  owner_kind: string
  acquired_at: number
  heartbeat_at: number
}

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export class SessionLeases implements SessionLeasesPort {
  /** this store's owner id: a process id alone can be reused */
  readonly instance = randomUUID()
  private readonly host = hostname()
  private readonly staleAfterMs: number
  private readonly heartbeatMs: number
  private readonly now: () => number
  private readonly isAlive: (pid: number) => boolean
  private readonly q: {
    get: Statement<[string], LeaseRow>
    put: Statement<unknown[]>
    beat: Statement<unknown[]>
    drop: Statement<unknown[]>
  }

  constructor(
    private readonly db: Database,
    opts: SessionLeasesOptions = {},
    /** the session store's `checked`: damage a query meets is told as the store's */
    private readonly checked: <T>(fn: () => T) => T = (fn) => fn(),
  ) {
    this.staleAfterMs = opts.staleAfterMs ?? 30_000
    this.heartbeatMs = opts.heartbeatMs ?? 5_000
    this.now = opts.now ?? Date.now
    this.isAlive = opts.isAlive ?? processAlive
    this.q = {
      get: db.prepare('SELECT * FROM session_leases WHERE session_id = ?'),
      put: db.prepare(
        `INSERT OR REPLACE INTO session_leases
           (session_id, owner_pid, owner_instance, owner_host, owner_kind, acquired_at, heartbeat_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      beat: db.prepare(
        'UPDATE session_leases SET heartbeat_at = ? WHERE session_id = ? AND owner_instance = ?',
      ),
      drop: db.prepare('DELETE FROM session_leases WHERE session_id = ? AND owner_instance = ?'),
    }
  }

  private stale(row: LeaseRow, now: number): boolean {
    if (row.owner_instance === this.instance) return false
    if (now - row.heartbeat_at > this.staleAfterMs) return true
    return row.owner_host === this.host && !this.isAlive(row.owner_pid)
  }

  /** Takes the session's lease unless someone else holds a live one. Synchronous. */
  acquire(sessionId: string, kind: string): LeaseResult {
    const now = this.now()
    const holder = this.checked(() =>
      this.db
        .transaction((): LeaseRow | null => {
          const row = this.q.get.get(sessionId)
          if (row && !this.stale(row, now)) return row
          this.q.put.run(sessionId, process.pid, this.instance, this.host, kind, now, now)
          return null
        })
        .immediate(),
    )
    if (holder) {
      const who: LeaseHolder = {
        pid: holder.owner_pid,
        kind: holder.owner_kind,
        since: holder.acquired_at,
        heartbeatAt: holder.heartbeat_at,
        self: holder.owner_instance === this.instance,
      }
      return { ok: false, holder: who, busy: SessionLeases.busyMessage(who) }
    }
    return { ok: true, lease: this.held(sessionId) }
  }

  private held(sessionId: string): SessionLease {
    let released = false
    const renew = (): boolean => {
      if (released) return false
      try {
        return this.q.beat.run(this.now(), sessionId, this.instance).changes === 1
      } catch {
        return true // busy or closed: the next beat tries again
      }
    }
    const timer = setInterval(renew, this.heartbeatMs)
    timer.unref()
    return {
      sessionId,
      renew,
      release: () => {
        if (released) return
        released = true
        clearInterval(timer)
        try {
          this.q.drop.run(sessionId, this.instance)
        } catch {
          // the database is closed or busy: the lease goes stale and is taken over
        }
      },
    }
  }

  /** What to tell the user when `holder` has the session. */
  static busyMessage(holder: LeaseHolder): string {
    if (holder.self) {
      return 'A turn is already running in this session: stop it or wait for it to finish.'
    }
    const where =
      holder.kind === 'cli'
        ? 'the cairn command line'
        : holder.kind === 'web'
          ? 'browser mode'
          : 'the desktop app'
    return (
      `This conversation is busy in another window (${where}, process ${holder.pid}, ` +
      `since ${new Date(holder.since).toLocaleTimeString()}). Wait for its answer to finish or stop it there, then send again.`
    )
  }
}
