/**
 * A property over random histories (fast-check: every number the generator draws comes
 * from it, so a failure shrinks to a small history; the seed is fixed, so every run sees
 * the same cases): whatever the request view does (earlier versions, summaries over any range,
 * pins, cut tool results, compaction, left-out turns), every tool call in it is answered
 * by exactly one result right after it, in order, and no result refers to a missing call.
 * The stored messages given to it are never changed.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { planCompaction } from '../../src-main/core/agent/compaction-plan'
import { compressOldToolResults } from '../../src-main/core/agent/compress-tool-results'
import { fitToContext } from '../../src-main/core/agent/context-fit'
import { buildRequestView } from '../../src-main/core/agent/request-view'
import { estimateRequestTokens } from '../../src-main/core/llm/estimate'
import type { WireMessage } from '../../src-main/core/llm/types'
import { messageBuilder } from '../support/stored-messages'

const TARGET = { provider: 'p', model: 'm', systemPrompt: 'sys' }

function randomHistory(rnd: () => number): StoredMessage[] {
  const msg = messageBuilder()
  const out: StoredMessage[] = []
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!
  const text = (n: number): string => 'x'.repeat(Math.floor(rnd() * n))
  const turns = 1 + Math.floor(rnd() * 14)
  let callN = 0
  for (let t = 0; t < turns; t++) {
    const users = out.filter((m) => m.role === 'user' && m.kind === 'message')
    const replaces = users.length > 0 && rnd() < 0.1 ? users.at(-1)!.seq : null
    out.push(msg({ role: 'user', content: `u${t} ${text(300)}`, supersedes: replaces }))
    const rounds = Math.floor(rnd() * 3)
    for (let r = 0; r < rounds; r++) {
      const n = 1 + Math.floor(rnd() * 3) // parallel calls
      const calls = Array.from({ length: n }, () => ({
        id: `c${++callN}`,
        name: pick(['read', 'login', 'search']),
        arguments: rnd() < 0.1 ? 'not json' : '{"a":1}',
      }))
      const other = rnd() < 0.15 // another model: flattened to text
      out.push(
        msg({
          role: 'assistant',
          content: rnd() < 0.5 ? '' : text(100),
          toolCalls: calls,
          provider: other ? 'q' : 'p',
          model: 'm',
        }),
      )
      const order = rnd() < 0.2 ? [...calls].reverse() : calls
      for (const c of order) {
        const roll = rnd()
        if (roll < 0.05) continue // never answered (a crash)
        out.push(
          msg({
            role: 'tool',
            toolCallId: c.id,
            toolName: c.name,
            content: text(2000),
            ...(roll < 0.2 ? { failureKind: 'interrupted' as const, isError: true } : {}),
          }),
        )
        if (roll > 0.97) out.push(msg({ role: 'tool', toolCallId: c.id, content: 'twice' }))
      }
      if (rnd() < 0.05) out.push(msg({ role: 'tool', toolCallId: 'nowhere', content: 'orphan' }))
    }
    if (rnd() < 0.8)
      out.push(msg({ role: 'assistant', content: text(500), provider: 'p', model: 'm' }))
    if (rnd() < 0.05) out.push(msg({ role: 'assistant', kind: 'notice', content: 'notice' }))
  }
  for (const m of out) if (rnd() < 0.08) m.pinned = true
  // summaries over random ranges, aligned or not
  const summaries = Math.floor(rnd() * 3)
  for (let i = 0; i < summaries && out.length > 2; i++) {
    const a = 1 + Math.floor(rnd() * out.length)
    const b = Math.min(out.length, a + Math.floor(rnd() * 10))
    out.push(
      msg({ role: 'user', kind: 'summary', content: `summary ${i}`, covers: { from: a, to: b } }),
    )
  }
  return out
}

function checkPairing(view: readonly WireMessage[]): void {
  for (let i = 0; i < view.length; i++) {
    const m = view[i]!
    const calls = (m['tool_calls'] as { id: string }[] | undefined) ?? []
    if (m.role === 'tool')
      throw new Error(`result ${String(m['tool_call_id'])} without its call at ${i}`)
    if (calls.length === 0) continue
    expect(m.role).toBe('assistant')
    const results = view.slice(i + 1, i + 1 + calls.length)
    expect(results.map((r) => r.role)).toEqual(calls.map(() => 'tool'))
    expect(results.map((r) => r['tool_call_id'])).toEqual(calls.map((c) => c.id))
    expect(view[i + 1 + calls.length]?.role).not.toBe('tool')
    i += calls.length
  }
}

describe('the request view over random histories', () => {
  it('answers every tool call it sends exactly once, in order, and never changes the stored messages', () => {
    const seen = { plans: 0, summarized: 0, pinned: 0, trimmed: 0, flattened: 0 }
    // uniform draws (no bias towards edge cases), like Math.random
    const draws = fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })).map((n) => n / 2 ** 31)
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const rnd = (): number => g(() => draws)
        const history = randomHistory(rnd)
        const before = JSON.stringify(history)
        try {
          const view = buildRequestView(history, TARGET)
          checkPairing(view.messages)
          const compressed = compressOldToolResults(view.messages, {
            keepTurns: 1 + Math.floor(rnd() * 4),
            neverCompress: ['login'],
          })
          checkPairing(compressed.messages)
          const tokens = estimateRequestTokens(compressed.messages)
          // compaction as a turn would do it, with a summary saved at the end
          const plan = planCompaction(history, {
            currentTokens: tokens,
            targetTokens: Math.floor(rnd() * tokens),
            summaryTokens: 50,
            keepExchanges: 1 + Math.floor(rnd() * 5),
          })
          let compacted = history
          if (plan) {
            seen.plans++
            const path = history.filter((m) => m.seq > plan.to)
            expect(path[0]?.role === 'tool' && path[0].kind === 'message').toBe(false)
            const next = messageBuilder()
            let summary = next({ role: 'user' })
            while (summary.seq <= history.length) summary = next({ role: 'user' })
            compacted = [
              ...history,
              {
                ...summary,
                kind: 'summary',
                content: 'new summary',
                covers: { from: plan.from, to: plan.to },
              },
            ]
            const after = buildRequestView(compacted, TARGET)
            checkPairing(after.messages)
            expect(JSON.stringify(after.messages)).toContain('new summary')
          }
          const final = buildRequestView(compacted, TARGET)
          const fitted = fitToContext(final.messages, [], {
            maxTokens: Math.floor(rnd() * tokens),
            keep: final.pinned,
          })
          checkPairing(fitted.messages)
          if (final.diagnostics.summarized > 0) seen.summarized++
          if (final.diagnostics.flattenedToolCalls > 0) seen.flattened++
          if (final.pinned.size > 0) seen.pinned++
          if (fitted.diagnostics.omittedMessages > 0) seen.trimmed++
          for (const p of final.pinned) {
            expect(final.messages).toContain(p)
            if (p.role === 'tool') continue // kept with its round, possibly shortened
            // the first message kept may carry a note of what was left out before it
            const kept = fitted.messages.some(
              (m) => m === p || String(m['content']).endsWith(`\n\n${String(p['content'])}`),
            )
            expect(kept).toBe(true)
          }
        } catch (e) {
          throw new Error(`${e instanceof Error ? e.message : String(e)}`, { cause: e })
        }
        expect(JSON.stringify(history)).toBe(before)
      }),
      { numRuns: 400, seed: 20_261_124 },
    )
    // the cases the generator made cover every step
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(20)
  })
})
