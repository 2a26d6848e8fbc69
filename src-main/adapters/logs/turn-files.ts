/**
 * Names of the turn log files: `turn-NNN-request.json` / `turn-NNN-response.json`,
 * NNN the LLM call's number within the session (3 digits, more past 999).
 */
import fs from 'node:fs/promises'

export type TurnFileKind = 'request' | 'response'

const TURN_FILE = /^turn-(\d+)-(request|response)\.json$/

export function turnFileName(number: number, kind: TurnFileKind): string {
  return `turn-${String(number).padStart(3, '0')}-${kind}.json`
}

export function parseTurnFileName(name: string): { number: number; kind: TurnFileKind } | null {
  const m = TURN_FILE.exec(name)
  if (!m?.[1] || !m[2]) return null
  return { number: Number.parseInt(m[1], 10), kind: m[2] as TurnFileKind }
}

/** The numbers that have a request or a response file in `dir`, ascending. [] if no dir. */
export async function turnNumbers(dir: string): Promise<number[]> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw e
  }
  const numbers = new Set<number>()
  for (const name of names) {
    const parsed = parseTurnFileName(name)
    if (parsed) numbers.add(parsed.number)
  }
  return [...numbers].sort((a, b) => a - b)
}

/** The highest number used in `dir`, 0 when none. */
export async function highestTurnNumber(dir: string): Promise<number> {
  const numbers = await turnNumbers(dir)
  return numbers[numbers.length - 1] ?? 0
}
