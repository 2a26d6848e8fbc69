/**
 * The contract's closed list of error codes, checked wherever a test meets an error: every
 * failure the test bridges answer and every error an event carries (`tests/support/bridges.ts`)
 * must have a code from `errorCodeSchema`, a message, and the details its code promises. A
 * code outside the list fails the test that met it. `seenCodes` keeps what the tests met.
 */
import { errorCodeSchema, type ErrorCode } from '../../src-preload/contract/errors'
import type { AppEvent } from '../../src-preload/contract/app-events'

/** every code a test bridge answered or an event carried, in this test file's run */
export const seenCodes = new Set<ErrorCode>()

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** What is wrong with `e` as the contract's ErrorInfo; null when nothing is. */
export function errorInfoProblem(e: unknown): string | null {
  if (!isRecord(e)) return `not an object: ${JSON.stringify(e)}`
  const code = errorCodeSchema.safeParse(e['code'])
  if (!code.success) return `the code ${JSON.stringify(e['code'])} is not in the contract's list`
  if (typeof e['message'] !== 'string' || e['message'].trim() === '')
    return `${code.data} has no message`
  const details = e['details']
  if (details === undefined) return null
  if (!isRecord(details)) return `${code.data}: details are not an object`
  switch (code.data) {
    case 'bad_request':
    case 'conflict': {
      const fields = details['fields']
      if (!isRecord(fields) || !Object.values(fields).every((v) => typeof v === 'string'))
        return `${code.data}: details.fields is not a record of strings`
      return null
    }
    case 'internal':
      return typeof details['id'] === 'string' && /^[0-9a-f]{8}$/.test(details['id'])
        ? null
        : 'internal: details.id is not 8 hex characters'
    case 'database_damaged':
    case 'data_dir_not_writable':
      return typeof details['path'] === 'string' ? null : `${code.data}: details.path is missing`
    default:
      return null
  }
}

/** Throws when `e` is not an ErrorInfo with a known code; notes the code. */
export function checkErrorInfo(where: string, e: unknown): void {
  const problem = errorInfoProblem(e)
  if (problem) throw new Error(`${where}: ${problem} (${JSON.stringify(e)})`)
  seenCodes.add((e as { code: ErrorCode }).code)
}

/** A route's answer, its error checked. */
export function checkedResult<T>(route: string, r: T): T {
  const answer = r as { ok?: unknown; error?: unknown }
  if (answer.ok === false) checkErrorInfo(route, answer.error)
  return r
}

/** An event, the error it carries (a turn's end, a voice error) checked. */
export function checkEvent(e: AppEvent): void {
  if (e.event === 'agent' && e.payload.type === 'turn_end' && e.payload.error)
    checkErrorInfo('turn_end', e.payload.error)
  if (e.event === 'voice' && e.payload.type === 'error') checkErrorInfo('voice', e.payload)
}
