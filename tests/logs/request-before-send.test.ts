/**
 * Issue 25, case 13: a model call's request file exists before the request is sent, as
 * `turn-log.ts` promises, so that after a crash the inspector still has the call in flight.
 * The real FileTurnLogger on a disk that is slow to answer (its `begin` waits first); the
 * scripted server looks for the file when the request arrives.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import type { TurnLogger } from '../../src-main/core/ports'
import { createHarness, type Harness } from '../support/agent-harness'
import { textReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(() => h.close())

/** the real logger, behind a disk that takes `ms` before each request file is written */
function slowDisk(ms: number): TurnLogger {
  const real = new FileTurnLogger(h.dir)
  return {
    begin: async (sessionId, request) => {
      await new Promise((r) => setTimeout(r, ms))
      return real.begin(sessionId, request)
    },
  }
}

describe('the request file of a model call', () => {
  it('is written before the request is sent', async () => {
    const file = (n: number) =>
      join(h.dir, 'logs', 'sessions', h.sessionId, `turn-00${n}-request.json`)
    const seen: boolean[] = []
    h.server.enqueue(
      () => {
        seen.push(existsSync(file(1)))
        return textReply('first')
      },
      () => {
        seen.push(existsSync(file(2)))
        return textReply('second')
      },
    )
    const logger = slowDisk(300)
    expect((await h.turn('one', { logger })).outcome.reason).toBe('completed')
    expect((await h.turn('two', { logger })).outcome.reason).toBe('completed')
    expect(seen).toEqual([true, true])
  })
})
