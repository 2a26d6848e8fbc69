/**
 * Damage that shows only after a database opened: the pages of one table or index in the
 * middle of `cairn.db` are overwritten, so the opening checks (schema, version) pass and a
 * later query that reads those pages fails with SQLITE_CORRUPT.
 */
import fs from 'node:fs'
import Database from 'better-sqlite3'

/** The page numbers of `btree` (a table or an index named in sqlite_master), from dbstat. */
export function pagesOf(file: string, btree: string): { pages: number[]; pageSize: number } {
  const db = new Database(file)
  try {
    // everything into the main file, so that the pages overwritten below are the ones read
    db.pragma('wal_checkpoint(TRUNCATE)')
    const pageSize = Number(db.pragma('page_size', { simple: true }))
    const pages = db
      .prepare<[string], { pageno: number }>('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno')
      .all(btree)
      .map((r) => r.pageno)
    return { pages, pageSize }
  } finally {
    db.close()
  }
}

/**
 * Overwrites every page of `btree` with bytes no page holds. Returns the pages damaged. The
 * file must be checkpointed (`pagesOf` does it) and no connection may have it cached.
 */
export function damagePages(file: string, btree: string): number[] {
  const { pages, pageSize } = pagesOf(file, btree)
  if (pages.length === 0) throw new Error(`${btree} has no pages in ${file}`)
  if (pages.includes(1)) throw new Error(`${btree} lives on page 1: the file would not open`)
  const fd = fs.openSync(file, 'r+')
  try {
    const garbage = Buffer.alloc(pageSize, 0xa5)
    for (const page of pages) fs.writeSync(fd, garbage, 0, pageSize, (page - 1) * pageSize)
  } finally {
    fs.closeSync(fd)
  }
  return pages
}

/** The SQLite error code a plain connection gets for `sql` (null when it runs). */
export function rawQueryError(file: string, sql: string): string | null {
  const db = new Database(file, { readonly: true })
  try {
    db.prepare(sql).all()
    return null
  } catch (e) {
    return String((e as { code?: unknown }).code)
  } finally {
    db.close()
  }
}
