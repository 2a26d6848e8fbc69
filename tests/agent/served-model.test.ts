import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import { AbortReason } from '../../src-main/core/llm/types'
import { createHarness, type Harness } from '../support/agent-harness'
import { slowText, textReply, type Reply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

/** the reply with every chunk naming `model` (the server fills in the requested one otherwise) */
function servedBy(model: string, reply: Reply): Reply {
  if (reply.type !== 'sse') return reply
  return {
    ...reply,
    items: reply.items.map((i) => ('choices' in i || 'usage' in i ? { ...i, model } : i)),
  }
}

const lastAssistant = () =>
  h.store
    .listMessages(h.sessionId)
    .filter((m) => m.role === 'assistant')
    .at(-1)!

describe('the model the server says answered', () => {
  it('is stored beside the one asked for when they differ, and logged', async () => {
    h.server.enqueue(servedBy('test-model-2025-06-01', textReply('Hello.')))
    await h.turn('hi', { logger: new FileTurnLogger(h.dir) })
    expect(lastAssistant()).toMatchObject({
      model: 'test-model',
      servedModel: 'test-model-2025-06-01',
    })
    const dir = join(h.dir, 'logs', 'sessions', h.sessionId)
    const file = readdirSync(dir).find((f) => f.endsWith('-response.json'))!
    const log = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { servedModel: string }
    expect(log.servedModel).toBe('test-model-2025-06-01')
  })

  it('is not stored when the server names the model asked for', async () => {
    h.server.enqueue(servedBy('test-model', textReply('Hello.')))
    await h.turn('hi')
    expect(lastAssistant()).toMatchObject({ model: 'test-model', servedModel: null })
  })

  it('is kept on a stopped answer too', async () => {
    h.server.enqueue(servedBy('router/picked-model', slowText(30, 10)))
    const stop = new AbortController()
    const { outcome } = await h.turn('go', {
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'text_delta' && e.text.startsWith('w2 ')) stop.abort(new AbortReason('stop'))
      },
    })
    expect(outcome.reason).toBe('aborted')
    expect(lastAssistant()).toMatchObject({ status: 'stopped', servedModel: 'router/picked-model' })
  })
})
