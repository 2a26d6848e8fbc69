import { describe, expect, it } from 'vitest'
import {
  checkReplaces,
  newestPath,
  newestUserMessage,
  supersededSeqs,
} from '../../src-main/core/agent/history-path'
import { messageBuilder } from '../support/stored-messages'

/** q1 a1 · q1' (replaces q1) a1' · q2 a2 */
function regeneratedOnce() {
  const msg = messageBuilder()
  return [
    msg({ role: 'user', content: 'q1' }),
    msg({ role: 'assistant', content: 'a1' }),
    msg({ role: 'user', content: "q1'", supersedes: 1 }),
    msg({ role: 'assistant', content: "a1'" }),
    msg({ role: 'user', content: 'q2' }),
    msg({ role: 'assistant', content: 'a2' }),
  ]
}

describe('the newest path', () => {
  it('leaves out everything from the superseded seq up to the replacing message', () => {
    const h = regeneratedOnce()
    expect([...supersededSeqs(h)]).toEqual([1, 2])
    expect(newestPath(h).map((m) => m.content)).toEqual(["q1'", "a1'", 'q2', 'a2'])
  })

  it('is the whole history when nothing was replaced (a copy, not the same array)', () => {
    const msg = messageBuilder()
    const h = [msg({ role: 'user', content: 'a' }), msg({ role: 'assistant', content: 'b' })]
    const path = newestPath(h)
    expect(path).toEqual(h)
    expect(path).not.toBe(h)
    expect(supersededSeqs(h).size).toBe(0)
  })

  it('follows chained replacements (regenerate twice): only the newest version stays', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'v1' }),
      msg({ role: 'user', content: 'q', supersedes: 1 }),
      msg({ role: 'assistant', content: 'v2' }),
      msg({ role: 'user', content: 'q', supersedes: 3 }),
      msg({ role: 'assistant', content: 'v3' }),
    ]
    expect(newestPath(h).map((m) => [m.seq, m.content])).toEqual([
      [5, 'q'],
      [6, 'v3'],
    ])
    expect(newestUserMessage(h)?.seq).toBe(5)
  })

  it('finds the newest user message on the path, skipping notices and earlier versions', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'a' }),
      msg({ role: 'user', content: 'edited', supersedes: 1 }),
      msg({ role: 'assistant', content: 'b' }),
      msg({ role: 'user', kind: 'notice', content: 'a notice' }),
    ]
    expect(newestUserMessage(h)?.content).toBe('edited')
    expect(newestUserMessage([])).toBeNull()
  })
})

describe('checking a replacement', () => {
  it('accepts the newest user message and gives the seq it supersedes', () => {
    const h = regeneratedOnce()
    expect(checkReplaces(h, 'm5')).toEqual({ ok: true, supersedes: 5 })
  })

  it('refuses an unknown id (not_found) and any other message (conflict), saying why', () => {
    const h = regeneratedOnce()
    expect(checkReplaces(h, 'nope')).toMatchObject({ ok: false, code: 'not_found' })
    const earlier = checkReplaces(h, 'm3')
    expect(earlier).toMatchObject({ ok: false, code: 'conflict' })
    expect(!earlier.ok && earlier.message).toMatch(/later user message follows/)
    const replaced = checkReplaces(h, 'm1')
    expect(!replaced.ok && replaced.message).toMatch(/already replaced/)
    const answer = checkReplaces(h, 'm6')
    expect(!answer.ok && answer.message).toMatch(/not a user message/)
  })
})
