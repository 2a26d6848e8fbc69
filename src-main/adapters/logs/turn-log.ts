/**
 * One pair of files per LLM call, in `<dataDir>/logs/sessions/<sessionId>/`:
 * `turn-NNN-request.json` (written by `begin`, before the call, so that a crash still
 * leaves it) and `turn-NNN-response.json` (written by `finish`).
 *
 * NNN numbers the calls of the session from 001, across turns and processes: the next
 * number is cached per session and verified by publishing the request file exclusively
 * (a hard link fails on a taken name), so two processes never take the same number.
 * Writes are atomic and asynchronous; secrets are redacted; a failure to log is reported
 * through `onError` and never fails the turn.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { TurnLogHandle, TurnLogRequest, TurnLogResponse, TurnLogger } from '../../core/ports'
import { assertSessionId, dataPaths, PRIVATE_DIR_MODE } from '../data-dir'
import { publishExclusive, writeFileAtomic, writeTempFile } from '../atomic-file'
import { redactHeaders, redactUrl, serializeRedacted } from './redact'
import { highestTurnNumber, turnFileName } from './turn-files'

export { pruneTurnLogs, deleteSessionLogs, type PruneResult } from './prune'
export { listTurnLogs } from './list'

export interface FileTurnLoggerOptions {
  /** known secret strings (the configured API keys): never written */
  secrets?: () => string[]
  /** a log could not be written; the turn goes on */
  onError?: (error: Error) => void
  now?: () => number
}

/** What `begin` resolves with when the request could not be logged: `finish` does nothing. */
const DETACHED: TurnLogHandle = { number: 0, finish: () => Promise.resolve() }

/** More collisions than this in one `begin` means something else is wrong. */
const MAX_ATTEMPTS = 1_000

export class FileTurnLogger implements TurnLogger {
  private readonly nextNumber = new Map<string, number>()

  constructor(
    private readonly dataDir: string,
    private readonly opts: FileTurnLoggerOptions = {},
  ) {}

  /** Rejects only on an invalid session id; write failures go to `onError`. */
  async begin(sessionId: string, request: TurnLogRequest): Promise<TurnLogHandle> {
    assertSessionId(sessionId)
    const dir = dataPaths(this.dataDir).sessionLogs(sessionId)
    const at = this.now()
    try {
      const text = this.serialize(requestRecord(sessionId, request, at))
      const number = await this.reserve(sessionId, dir, text).catch((e: unknown) => {
        // the directory went away meanwhile (pruned or deleted): once more, from scratch
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
        return this.reserve(sessionId, dir, text)
      })
      return {
        number,
        finish: (response) => this.finish(sessionId, dir, number, request, response),
      }
    } catch (e) {
      this.report(e)
      return DETACHED
    }
  }

  /** Publishes the request file under the first free number; returns that number. */
  private async reserve(sessionId: string, dir: string, text: string): Promise<number> {
    // private like the rest of the data directory (else the next start narrows it, and warns)
    const created = await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
    // A directory made just now is empty (the session's logs were pruned or deleted).
    let number = created !== undefined ? 1 : (this.nextNumber.get(sessionId) ?? 0)
    if (number === 0) number = (await highestTurnNumber(dir)) + 1
    const temp = await writeTempFile(path.join(dir, turnFileName(number, 'request')), text)
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const target = path.join(dir, turnFileName(number, 'request'))
        if ((await publishExclusive(temp, target, text)) === 'ok') {
          this.nextNumber.set(sessionId, number + 1)
          return number
        }
        // Taken (another process, or a stale cache): jump past the highest number in use.
        number = Math.max(number + 1, (await highestTurnNumber(dir)) + 1)
      }
      throw new Error(`could not find a free turn log number in ${dir}`)
    } finally {
      await fs.rm(temp, { force: true })
    }
  }

  private async finish(
    sessionId: string,
    dir: string,
    number: number,
    request: TurnLogRequest,
    response: TurnLogResponse,
  ): Promise<void> {
    try {
      const record = {
        sessionId,
        turnId: request.turnId,
        round: request.round,
        attempt: request.attempt,
        timestamp: new Date(this.now()).toISOString(),
        ...response,
      }
      await writeFileAtomic(
        path.join(dir, turnFileName(number, 'response')),
        this.serialize(record),
      )
    } catch (e) {
      this.report(e)
    }
  }

  private serialize(record: unknown): string {
    let secrets: string[] = []
    try {
      secrets = this.opts.secrets?.() ?? []
    } catch (e) {
      // Without the list of secrets nothing can be checked: better no log than a leak.
      throw new Error(`the list of secrets to redact is unavailable: ${(e as Error).message}`)
    }
    return `${serializeRedacted(record, secrets)}\n`
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now()
  }

  private report(e: unknown): void {
    const error = e instanceof Error ? e : new Error(String(e))
    try {
      this.opts.onError?.(error)
    } catch {
      // a failing error handler must not fail the turn either
    }
  }
}

/** The request as logged: the exact body, and the call's context around it. */
function requestRecord(sessionId: string, request: TurnLogRequest, at: number): unknown {
  const body = request.body
  const fields =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {}
  const { messages: _messages, tools, ...parameters } = fields
  const toolNames = Array.isArray(tools)
    ? tools.map((t: unknown) => {
        const fn = (t as { function?: { name?: unknown } } | null)?.function
        return typeof fn?.name === 'string' ? fn.name : null
      })
    : []
  const headers = redactHeaders(request.headers)
  return {
    sessionId,
    turnId: request.turnId,
    round: request.round,
    attempt: request.attempt,
    timestamp: new Date(at).toISOString(),
    baseURL: redactUrl(request.baseURL),
    model: request.model,
    ...(headers ? { headers } : {}),
    parameters,
    toolNames,
    ...(request.diagnostics ? { diagnostics: request.diagnostics } : {}),
    body,
  }
}
