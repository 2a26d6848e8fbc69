/**
 * How a turn's end says what went wrong, in the contract's codes: a provider's failure
 * carries its code with the provider's address (the window offers its settings by it); a
 * bug is `internal`, logged by the host with its stack, and the id in that log line is in
 * the turn's error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolHost } from '../../src-main/core/ports'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { httpError } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => h.close())

describe('a turn’s end', () => {
  it('a provider’s failure: its code, its status, whether to retry, and the provider’s address', async () => {
    h.server.enqueue(httpError(404, 'The model `test-model` does not exist'))
    const { events } = await h.turn('hi')
    const [end] = ofType(events, 'turn_end')
    expect(end).toMatchObject({
      reason: 'error',
      error: {
        code: 'model_not_found',
        details: { status: 404, retryable: false, provider: h.server.baseURL },
      },
    })
  })

  it('a bug: internal, with the id the host logged it under', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'schema')")
    const broken: ToolHost = {
      listTools: async () => {
        throw bug
      },
      callTool: async () => {
        throw bug
      },
    } as unknown as ToolHost
    const logged: unknown[] = []
    const { events } = await h.turn('hi', {
      toolHost: broken,
      reportBug: (e) => {
        logged.push(e)
        return '0a1b2c3d'
      },
    })
    const [end] = ofType(events, 'turn_end')
    expect(logged).toEqual([bug])
    expect(end).toMatchObject({
      reason: 'error',
      error: { code: 'internal', details: { id: '0a1b2c3d' } },
    })
    expect(end!.error!.message).toContain('0a1b2c3d')
    expect(end!.error!.message).toContain("reading 'schema'")
  })
})
