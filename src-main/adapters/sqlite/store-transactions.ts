/**
 * The session store's transactions, and the damage they meet: every public method of the
 * store runs in one of these (`write`, `maybeWrite`, `read`); a query that meets a damaged
 * part of the database throws a `StorageError` saying what to do, and the first is kept.
 */
import type { Database, Transaction } from 'better-sqlite3'
import { damagedLater, explainQueryError, type StorageError } from './open-errors'

export abstract class StoreTransactions {
  private writes = 0
  /** one reusable transaction wrapper (better-sqlite3 builds five functions per `transaction()`) */
  private readonly tx: Transaction<(fn: () => unknown) => unknown>

  constructor(readonly db: Database) {
    this.tx = db.transaction((fn: () => unknown) => fn())
  }

  /** store operations that wrote (committed a change); never counts reads */
  get writeCount(): number {
    return this.writes
  }

  /**
   * Runs `fn` in one transaction (store calls inside it become savepoints). For bulk work
   * such as imports; `writeCount` still counts each operation.
   */
  batch<T>(fn: () => T): T {
    return this.checked(() => this.tx.immediate(fn) as T)
  }

  /**
   * The first damage a query found in this database (a damaged page, a failed read), or
   * null. Set once a call failed with a `StorageError` of problem `database_damaged`.
   */
  get damage(): StorageError | null {
    return this.damageFound
  }
  private damageFound: StorageError | null = null

  /**
   * The damage a query found, or else what SQLite's own check of every page finds now
   * (`PRAGMA quick_check`: it reads the whole file, so only when the user asks, such as
   * before a damaged database is replaced). Null when the database is sound.
   */
  findDamage(): StorageError | null {
    if (this.damageFound) return this.damageFound
    let problems: string[]
    try {
      problems = this.checked(() =>
        (this.db.pragma('quick_check(5)') as { quick_check: string }[])
          .map((r) => r.quick_check)
          .filter((r) => r !== 'ok'),
      )
    } catch (e) {
      // the check itself met the damage (and `checked` remembered it)
      if (this.damageFound) return this.damageFound
      throw e
    }
    if (problems.length === 0) return null
    this.damageFound = damagedLater(
      this.db.name,
      `part of it is damaged (SQLite's check says: ${problems.join('; ')})`,
    )
    return this.damageFound
  }

  /**
   * Runs `fn`, a query of this store or of another one on its database (assistant-store.ts);
   * damage it meets in the database (the file opened, then a query failed on a damaged part
   * of it) is thrown as a `StorageError` that says what to do, and kept as `damage`.
   */
  checked<T>(fn: () => T): T {
    try {
      return fn()
    } catch (e) {
      const damage = explainQueryError(e, this.db.name)
      if (!damage) throw e
      this.damageFound ??= damage
      throw damage
    }
  }

  /** a write transaction that always writes (counted) */
  protected write<T>(fn: () => T): T {
    const result = this.checked(() => this.tx.immediate(fn) as T)
    this.writes++
    return result
  }

  /** a write transaction that may find nothing to do: counted only when `wrote` says so */
  protected maybeWrite<T>(fn: () => T, wrote: (result: T) => boolean): T {
    const result = this.checked(() => this.tx.immediate(fn) as T)
    if (wrote(result)) this.writes++
    return result
  }

  protected read<T>(fn: () => T): T {
    return this.checked(() => this.tx.deferred(fn) as T)
  }
}
