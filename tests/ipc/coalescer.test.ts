import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src-preload/contract/events'
import { DeltaCoalescer } from '../../src-main/services/turns/delta-coalescer'

const base = { sessionId: 's', turnId: 't', at: 0 }
const text = (t: string): AgentEvent => ({ ...base, type: 'text_delta', text: t })
const reasoning = (t: string): AgentEvent => ({ ...base, type: 'reasoning_delta', text: t })

describe('DeltaCoalescer', () => {
  it('joins deltas within an interval into one message', async () => {
    const out: AgentEvent[] = []
    const c = new DeltaCoalescer((e) => out.push(e), 16)
    for (let i = 0; i < 100; i++) c.push(text('a'))
    expect(out).toHaveLength(0)
    await new Promise((r) => setTimeout(r, 40))
    expect(out).toEqual([{ ...base, type: 'text_delta', text: 'a'.repeat(100) }])
  })

  it('never reorders: another event flushes pending deltas first, at once', () => {
    const out: AgentEvent[] = []
    const c = new DeltaCoalescer((e) => out.push(e), 1000)
    c.push(reasoning('think '))
    c.push(reasoning('more'))
    c.push(text('Hello'))
    c.push(text(' world'))
    c.push({ ...base, type: 'turn_end', reason: 'completed' })
    expect(out.map((e) => [e.type, 'text' in e ? e.text : ''])).toEqual([
      ['reasoning_delta', 'think more'],
      ['text_delta', 'Hello world'],
      ['turn_end', ''],
    ])
  })

  it('sends a steady fast stream at no more than about 60 messages a second', async () => {
    const out: AgentEvent[] = []
    const c = new DeltaCoalescer((e) => out.push(e), 16)
    const started = Date.now()
    while (Date.now() - started < 300) {
      c.push(text('x'))
      await new Promise((r) => setImmediate(r))
    }
    c.flush()
    const elapsed = Date.now() - started
    expect(out.length).toBeLessThanOrEqual(Math.ceil(elapsed / 16) + 1)
    expect(out.map((e) => ('text' in e ? e.text : '')).join('').length).toBeGreaterThan(out.length)
  })
})
