/** Reading a session's turn logs back, a page at a time (for the turn inspector). */
import fs from 'node:fs/promises'
import path from 'node:path'
import { dataPaths } from '../data-dir'
import type { TurnLogPage } from '../../core/service-ports'
import { turnFileName, turnNumbers, type TurnFileKind } from './turn-files'

async function readJson(dir: string, number: number, kind: TurnFileKind): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, turnFileName(number, kind)), 'utf8'))
  } catch {
    return null
  }
}

/** The session's logged calls ordered by number, `limit` of them from `offset`. */
export async function listTurnLogs(
  dataDir: string,
  sessionId: string,
  page: { offset?: number; limit?: number } = {},
): Promise<TurnLogPage> {
  const dir = dataPaths(dataDir).sessionLogs(sessionId)
  const offset = Math.max(0, Math.floor(page.offset ?? 0))
  const limit = Math.max(0, Math.floor(page.limit ?? 50))
  const numbers = await turnNumbers(dir)
  const items = await Promise.all(
    numbers.slice(offset, offset + limit).map(async (number) => ({
      number,
      request: await readJson(dir, number, 'request'),
      response: await readJson(dir, number, 'response'),
    })),
  )
  return { total: numbers.length, items }
}
