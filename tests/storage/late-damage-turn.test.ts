/**
 * A turn that meets a damaged database while it stores a message ends at once with
 * `database_damaged`, in words that say what is wrong, what to do, and what of the turn was
 * not saved (the answer the user already saw stream in).
 */
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, ofType, textOf, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'
import { damagePages } from './late-damage'

let h: Harness
let file: string
beforeEach(async () => {
  h = await createHarness()
  file = path.join(h.dir, 'cairn.db')
  h.server.enqueue(textReply('A first answer, stored.'))
  expect((await h.turn('hello')).outcome.reason).toBe('completed')
})
afterEach(async () => {
  await h.close()
})

describe('a turn on a database damaged while it runs', () => {
  it('ends with database_damaged and names the streamed answer that was not saved', async () => {
    const answer = 'An answer the user reads as it streams, then cannot be stored.'
    // the model is asked once the user's message is stored: the damage comes in between
    h.server.enqueue(() => {
      damagePages(file, 'messages')
      return textReply(answer)
    })
    const { outcome, events } = await h.turn('and then?')
    expect(textOf(events)).toBe(answer)
    expect(outcome.reason).toBe('error')
    expect(outcome.error?.code).toBe('database_damaged')
    const message = outcome.error?.message ?? ''
    expect(message).toMatch(/cannot be used: part of it is damaged .*SQLITE_CORRUPT/)
    expect(message).toMatch(/copy it aside/)
    expect(message).toContain(`Not saved: the answer shown above (${answer.length} characters)`)
    // one turn_end, with that error; the message the user saw never claims to be saved
    const ends = ofType(events, 'turn_end')
    expect(ends).toHaveLength(1)
    expect(ends[0]!.error).toEqual(outcome.error)
    expect(ofType(events, 'message_saved').map((e) => e.role)).toEqual(['user'])
    expect(h.store.damage).not.toBeNull()
  })

  it('a tool result that cannot be stored is named, and the turn asks the model no more', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'read_note', arguments: '{"key":"a"}' }]),
      textReply('never asked for'),
    )
    const { outcome, events } = await h.turn('read a note', {
      onEvent: (e) => {
        // the tool has run; its result is stored next
        if (e.type === 'tool_call') damagePages(file, 'messages')
      },
    })
    expect(outcome.reason).toBe('error')
    expect(outcome.error?.code).toBe('database_damaged')
    expect(outcome.error?.message).toMatch(/Not saved: the result of read_note \(the tool did run\)/)
    expect(h.server.requests).toHaveLength(2)
    expect(ofType(events, 'turn_end')).toHaveLength(1)
  })

  it('damage met before the user message is stored says that message was not saved', async () => {
    damagePages(file, 'messages')
    h.server.enqueue(textReply('never asked for'))
    const { outcome } = await h.turn('one more')
    expect(outcome.error?.code).toBe('database_damaged')
    expect(outcome.error?.message).toMatch(/Not saved: your message\./)
    expect(h.server.requests).toHaveLength(1)
  })
})
