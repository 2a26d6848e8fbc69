import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import type { StoredMessage } from '../../src-preload/contract/dto'
import type { WireMessage } from '../../src-main/core/llm/types'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { completionReply, httpError, textReply, type Reply } from '../support/openai-server'

/** a non-streamed completion, as the summary call expects */
function summaryReply(text: string): Reply {
  return completionReply(text, {
    id: 'sum',
    model: 'test-model',
    usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 },
  })
}

/** `turns` exchanges of about 1 000 characters each, stored as earlier turns would be */
function seed(h: Harness, turns: number): void {
  for (let i = 0; i < turns; i++) {
    h.store.appendMessage(h.sessionId, {
      role: 'user',
      content: `question ${i} ${'q'.repeat(400)}`,
    })
    h.store.appendMessage(h.sessionId, {
      role: 'assistant',
      content: `answer ${i} ${'a'.repeat(600)}`,
      provider: h.server.baseURL,
      model: h.model,
    })
  }
}

const sentOf = (h: Harness, i: number): WireMessage[] =>
  (h.server.requests[i]?.body as { messages: WireMessage[] }).messages
const texts = (messages: WireMessage[]): string => JSON.stringify(messages)
const frozen = (messages: StoredMessage[]): string => JSON.stringify(messages)

describe('compaction of a long session', () => {
  let h: Harness
  afterEach(async () => {
    await h.close()
  })

  it('summarizes the middle with a separate call, keeps the first message and the last 5 exchanges, and leaves the stored history as it was', async () => {
    h = await createHarness()
    seed(h, 12)
    const before = frozen(h.store.listMessages(h.sessionId))
    h.server.enqueue(summaryReply('They discussed questions 1 to 6.'), textReply('fine'))
    const { outcome, events } = await h.turn('new question', {
      limits: { contextTokens: 4000 },
      systemPrompt: 'be brief',
      logger: new FileTurnLogger(h.dir),
    })
    expect(outcome.reason).toBe('completed')

    // the summary call: not streamed, low temperature, the covered messages only
    const call = h.server.requests[0]!.body as Record<string, unknown>
    expect(call['stream']).toBe(false)
    expect(call['temperature']).toBe(0.2)
    expect(call['tools']).toBeUndefined()
    const transcript = texts(sentOf(h, 0))
    expect(transcript).toContain('answer 0')
    expect(transcript).not.toContain('question 0')
    expect(transcript).not.toContain('question 11')

    // the answer's request: the summary where the middle was
    const sent = sentOf(h, 1)
    expect(sent[0]).toEqual({ role: 'system', content: 'be brief' })
    expect(String(sent[1]?.['content'])).toMatch(/^question 0 /)
    expect(texts(sent)).toContain(
      'Summary of the earlier conversation:\\nThey discussed questions 1 to 6.',
    )
    // the last 5 exchanges: the 4 before and this one
    for (const i of [8, 9, 10, 11])
      expect(texts(sent)).toContain(`question ${i} ${'q'.repeat(400)}`)
    expect(texts(sent)).not.toContain('answer 0 ')
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'new question' })

    const [compacted] = ofType(events, 'context_compacted')
    expect(compacted).toMatchObject({ coveredFrom: 2, fallback: false })
    expect(compacted!.tokensAfter).toBeLessThan(compacted!.tokensBefore)
    expect(compacted!.tokensBefore).toBeGreaterThan(0.7 * 4000)
    expect(compacted!.tokensAfter).toBeLessThanOrEqual(0.5 * 4000)
    expect(ofType(events, 'context_trimmed')).toHaveLength(0)

    // stored: every original message byte for byte, then the question, the summary, the answer
    const stored = h.store.listMessages(h.sessionId)
    expect(frozen(stored.slice(0, 24))).toBe(before)
    const summary = stored.find((m) => m.kind === 'summary')!
    expect(summary.content).toBe('They discussed questions 1 to 6.')
    expect(summary.covers).toEqual({ from: compacted!.coveredFrom, to: compacted!.coveredTo })
    expect(summary.id).toBe(compacted!.summaryId)

    // the turn log: the summary call, then the request with how its view was built
    const logDir = join(h.dir, 'logs', 'sessions', h.sessionId)
    const logged = readdirSync(logDir)
      .filter((f) => f.endsWith('-request.json'))
      .sort()
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read freely
      .map((f) => JSON.parse(readFileSync(join(logDir, f), 'utf8')) as Record<string, any>)
    expect(logged).toHaveLength(2)
    expect(logged[0]!['body']['stream']).toBe(false)
    expect(logged[1]!['diagnostics']['context']).toMatchObject({
      windowTokens: 4000,
      compaction: { coveredFrom: compacted!.coveredFrom, fallback: false },
      trimmed: null,
    })
    expect(logged[1]!['diagnostics']['context']['summarized']).toBeGreaterThan(0)

    // the next turn uses the summary without compacting again (hysteresis)
    h.server.enqueue(textReply('again'))
    const next = await h.turn('one more', { limits: { contextTokens: 4000 } })
    expect(ofType(next.events, 'context_compacted')).toHaveLength(0)
    expect(h.server.requests).toHaveLength(3)
    expect(texts(sentOf(h, 2))).toContain('They discussed questions 1 to 6.')
  })

  it("the summary is written by the provider's utility model when one is set; the answer by the chat's", async () => {
    h = await createHarness()
    seed(h, 12)
    h.server.enqueue(summaryReply('They discussed questions 1 to 6.'), textReply('fine'))
    const { outcome } = await h.turn('new question', {
      limits: { contextTokens: 4000 },
      utilityModel: 'other-model',
    })
    expect(outcome.reason).toBe('completed')
    const models = h.server.requests.map((r) => (r.body as { model: string }).model)
    expect(models).toEqual(['other-model', 'test-model'])
    expect(JSON.stringify(sentOf(h, 1))).toContain('They discussed questions 1 to 6.')
  })

  it('falls back to the first 200 characters of each covered message when the summary call fails, and says so', async () => {
    h = await createHarness()
    seed(h, 12)
    const before = frozen(h.store.listMessages(h.sessionId))
    h.server.enqueue(httpError(500, 'summary broke'), textReply('still here'))
    const { outcome, events } = await h.turn('new question', { limits: { contextTokens: 4000 } })
    expect(outcome.reason).toBe('completed')
    const [compacted] = ofType(events, 'context_compacted')
    expect(compacted?.fallback).toBe(true)
    const warning = ofType(events, 'notice').find((n) => n.level === 'warning')
    expect(warning?.message).toMatch(/could not be summarized .*first 200 characters/)
    const sent = texts(sentOf(h, 1))
    expect(sent).toContain('No summary could be written')
    expect(sent).toContain(`Assistant: answer 1 ${'a'.repeat(200 - 'answer 1 '.length)}…`)
    expect(sent).not.toContain(`answer 1 ${'a'.repeat(300)}`)
    expect(frozen(h.store.listMessages(h.sessionId).slice(0, 24))).toBe(before)
  })

  it('undo: without the summary the next request sends the original messages again', async () => {
    h = await createHarness()
    seed(h, 12)
    h.server.enqueue(summaryReply('Short summary.'), textReply('ok'))
    await h.turn('new question', { limits: { contextTokens: 4000 } })
    const summary = h.store.listMessages(h.sessionId).find((m) => m.kind === 'summary')!
    expect(h.store.removeSummary(h.sessionId, summary.id)).toBe(true)
    h.server.enqueue(textReply('with everything'))
    const { events } = await h.turn('after undo', { limits: { contextTokens: 100_000 } })
    expect(ofType(events, 'context_compacted')).toHaveLength(0)
    const sent = texts(sentOf(h, 2))
    expect(sent).not.toContain('Short summary.')
    for (let i = 0; i < 12; i++) expect(sent).toContain(`answer ${i} ${'a'.repeat(600)}`)
  })

  it('a regenerated answer still gets the summary written in the turn it replaces', async () => {
    h = await createHarness()
    seed(h, 12)
    h.server.enqueue(summaryReply('Kept across a regenerate.'), textReply('first'))
    await h.turn('new question', { limits: { contextTokens: 4000 } })
    const question = h.store.listMessages(h.sessionId).find((m) => m.content === 'new question')!
    h.server.enqueue(textReply('second'))
    const again = await h.turn('new question', {
      limits: { contextTokens: 4000 },
      supersedes: question.seq,
    })
    expect(ofType(again.events, 'context_compacted')).toHaveLength(0)
    const sent = texts(sentOf(h, 2))
    expect(sent).toContain('Kept across a regenerate.')
    expect(sent).not.toContain('first')
  })

  it('never summarizes a pinned message', async () => {
    h = await createHarness()
    seed(h, 12)
    const pinned = h.store.listMessages(h.sessionId).find((m) => m.content.startsWith('answer 3 '))!
    h.store.setMessagePinned(h.sessionId, pinned.id, true)
    h.server.enqueue(summaryReply('Summary without the pinned one.'), textReply('ok'))
    const { events } = await h.turn('new question', { limits: { contextTokens: 4000 } })
    expect(ofType(events, 'context_compacted')).toHaveLength(1)
    expect(texts(sentOf(h, 0))).not.toContain('answer 3 ')
    const sent = sentOf(h, 1)
    const summaryAt = sent.findIndex((m) => String(m['content']).includes('Summary without'))
    const pinnedAt = sent.findIndex((m) => m['content'] === pinned.content)
    expect(summaryAt).toBeGreaterThanOrEqual(0)
    expect(pinnedAt).toBeGreaterThan(summaryAt)
  })

  it('when even the summary is not enough, leaves out the oldest whole turns and warns', async () => {
    h = await createHarness()
    seed(h, 12)
    h.server.enqueue(summaryReply('s'.repeat(3000)), textReply('ok'))
    const { outcome, events } = await h.turn('new question', { limits: { contextTokens: 1500 } })
    expect(outcome.reason).toBe('completed')
    expect(ofType(events, 'context_compacted')).toHaveLength(1)
    const [trimmed] = ofType(events, 'context_trimmed')
    expect(trimmed!.droppedMessages).toBeGreaterThan(0)
    expect(trimmed!.droppedRounds).toBeGreaterThan(0)
    expect(ofType(events, 'notice').some((n) => n.level === 'warning')).toBe(true)
    expect(sentOf(h, 1).at(-1)).toEqual({ role: 'user', content: 'new question' })
  })
})
