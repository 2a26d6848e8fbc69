import { describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import {
  applyEvent,
  applyEvents,
  endMessage,
  newTurn,
} from '../../src-renderer/src/state/turn-reducer'

let seq = 0
function ev(e: Record<string, unknown>): SequencedAgentEvent {
  return { sessionId: 's', turnId: 't', at: 0, seq: seq++, ...e } as SequencedAgentEvent
}

describe('the turn on screen', () => {
  it('streams text and reasoning into one answer, closed when saved', () => {
    seq = 0
    const v = applyEvents(newTurn('t', 's'), [
      ev({ type: 'turn_start', model: 'm', provider: 'p' }),
      ev({ type: 'reasoning_delta', text: 'hmm ' }),
      ev({ type: 'reasoning_delta', text: 'ok' }),
      ev({ type: 'text_delta', text: 'Hel' }),
      ev({ type: 'text_delta', text: 'lo' }),
      ev({ type: 'message_saved', messageId: 'm', role: 'assistant', status: 'complete' }),
    ])
    expect(v.items).toEqual([
      { kind: 'assistant', text: 'Hello', reasoning: 'hmm ok', open: false, status: 'complete' },
    ])
  })

  it('drops the text of an attempt that a retry discards, so nothing shows twice', () => {
    seq = 0
    const v = applyEvents(newTurn('t', 's'), [
      ev({ type: 'text_delta', text: 'Once upon' }),
      ev({
        type: 'retry',
        attempt: 2,
        maxAttempts: 4,
        delayMs: 500,
        reason: 'connection reset',
        discardPartial: true,
      }),
      ev({ type: 'text_delta', text: 'Once upon a time.' }),
    ])
    const texts = v.items.flatMap((i) => (i.kind === 'assistant' ? [i.text] : []))
    expect(texts).toEqual(['Once upon a time.'])
    expect(
      v.items.some((i) => i.kind === 'notice' && /retrying, attempt 2 of 4/.test(i.message)),
    ).toBe(true)
  })

  it('follows a tool call through approval to its result', () => {
    seq = 0
    let v = newTurn('t', 's')
    v = applyEvent(
      v,
      ev({
        type: 'tool_call',
        id: 'c',
        name: 'fs__read',
        server: 'fs',
        tool: 'read',
        arguments: { p: 1 },
        rawArguments: '{"p":1}',
        readOnly: true,
      }),
    )
    expect(v.items[0]).toMatchObject({ kind: 'tool', status: 'pending' })
    v = applyEvent(
      v,
      ev({
        type: 'permission_request',
        requestId: 'r',
        toolCallId: 'c',
        name: 'fs__read',
        server: 'fs',
        tool: 'read',
        description: '',
        arguments: {},
        annotations: {},
        trusted: false,
      }),
    )
    expect(v.items[0]).toMatchObject({ status: 'waiting' })
    v = applyEvent(
      v,
      ev({
        type: 'permission_decision',
        requestId: 'r',
        toolCallId: 'c',
        decision: 'allow_once',
        by: 'user',
      }),
    )
    expect(v.items[0]).toMatchObject({ status: 'running' })
    v = applyEvent(
      v,
      ev({
        type: 'tool_result',
        id: 'c',
        ok: true,
        content: 'data',
        durationMs: 3,
        synthetic: false,
      }),
    )
    expect(v.items[0]).toMatchObject({ status: 'done', result: 'data' })
  })

  it('ignores events it already has (a snapshot and live events overlapping after attach)', () => {
    seq = 0
    const events = [ev({ type: 'text_delta', text: 'a' }), ev({ type: 'text_delta', text: 'b' })]
    const v = applyEvents(applyEvents(newTurn('t', 's'), events), events)
    expect(v.items).toMatchObject([{ kind: 'assistant', text: 'ab' }])
    expect(v.nextSeq).toBe(2)
  })

  it('ends: a stopped answer is marked stopped, and an error says what to do', () => {
    seq = 0
    const stopped = applyEvents(newTurn('t', 's'), [
      ev({ type: 'text_delta', text: 'partial' }),
      ev({ type: 'turn_end', reason: 'aborted' }),
    ])
    expect(stopped.running).toBe(false)
    expect(stopped.items[0]).toMatchObject({ status: 'stopped', open: false })
    expect(endMessage(stopped)).toBe('Stopped.')
    seq = 0
    const failed = applyEvents(newTurn('t', 's'), [
      ev({
        type: 'turn_end',
        reason: 'error',
        error: { code: 'auth', message: 'The API key was rejected by http://x. Check it.' },
      }),
    ])
    expect(endMessage(failed)).toBe('The API key was rejected by http://x. Check it.')
  })
})
