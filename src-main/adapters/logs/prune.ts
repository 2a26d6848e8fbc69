/**
 * Turn log housekeeping: retention (by modification time) and deletion with a session.
 * Hosts run `pruneTurnLogs` once per process start, in the background.
 */
import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { dataPaths } from '../data-dir'

export interface PruneResult {
  deletedFiles: number
  removedDirs: number
}

const DAY_MS = 24 * 60 * 60 * 1000

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw e
  }
}

/**
 * Deletes the files under `<logsRoot>/sessions/*` last modified more than `retentionDays`
 * ago, and the session directories left empty. A retention that is not a positive
 * number prunes nothing. Files that vanish meanwhile (another process) are skipped.
 */
export async function pruneTurnLogs(
  logsRoot: string,
  retentionDays: number,
  now: number = Date.now(),
): Promise<PruneResult> {
  const result: PruneResult = { deletedFiles: 0, removedDirs: 0 }
  if (!Number.isFinite(retentionDays) || retentionDays <= 0) return result
  const cutoff = now - retentionDays * DAY_MS
  const sessionsDir = path.join(logsRoot, 'sessions')
  for (const session of await entries(sessionsDir)) {
    if (!session.isDirectory()) continue
    const dir = path.join(sessionsDir, session.name)
    let left = 0
    for (const file of await entries(dir)) {
      const p = path.join(dir, file.name)
      try {
        const stat = await fs.stat(p)
        if (file.isFile() && stat.mtimeMs < cutoff) {
          await fs.unlink(p)
          result.deletedFiles++
        } else {
          left++
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
      }
    }
    if (left === 0) {
      try {
        await fs.rmdir(dir)
        result.removedDirs++
      } catch (e) {
        // a logger wrote into it meanwhile, or it is already gone
        const code = (e as NodeJS.ErrnoException).code
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw e
      }
    }
  }
  return result
}

/** Deletes a session's turn logs (all of them; nothing if there are none). */
export async function deleteSessionLogs(dataDir: string, sessionId: string): Promise<void> {
  await fs.rm(dataPaths(dataDir).sessionLogs(sessionId), { recursive: true, force: true })
}
