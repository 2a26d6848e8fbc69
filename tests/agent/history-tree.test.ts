import { describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import {
  answerTarget,
  continuationPoint,
  editTarget,
  retriedMessage,
} from '../../src-main/core/agent/branch-points'
import {
  branchOf,
  childrenOf,
  deriveParents,
  newestLeafUnder,
  openBranch,
  versionsAt,
} from '../../src-main/core/agent/history-tree'
import { messageBuilder } from '../support/stored-messages'

const contents = (ms: readonly StoredMessage[]) => ms.map((m) => m.content)

/** q1 a1 · q1' (replaces q1) a1' · q2 a2, as written before messages knew their parents */
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

describe('parents of a history written without them', () => {
  it('a replacing message follows what the replaced one followed; the leaf is the newest path', () => {
    const h = regeneratedOnce()
    const { parents, leaf } = deriveParents(h)
    expect([...parents]).toEqual([
      [1, null],
      [2, 1],
      [3, null],
      [4, 3],
      [5, 4],
      [6, 5],
    ])
    expect(leaf).toBe(6)
    expect(contents(openBranch(h, null))).toEqual(["q1'", "a1'", 'q2', 'a2'])
  })

  it('chained replacements (regenerate twice): three versions at one point, the newest open', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'v1' }),
      msg({ role: 'user', content: 'q', supersedes: 1 }),
      msg({ role: 'assistant', content: 'v2' }),
      msg({ role: 'user', content: 'q', supersedes: 3 }),
      msg({ role: 'assistant', content: 'v3' }),
    ]
    expect(openBranch(h, null).map((m) => m.seq)).toEqual([5, 6])
    const children = childrenOf(h)
    expect(children.get(null)).toEqual([1, 3, 5])
    expect(versionsAt(children, h[4]!)).toEqual({ index: 2, seqs: [1, 3, 5] })
    expect(versionsAt(children, h[5]!)).toBeNull()
  })

  it('a summary follows the message before it but starts no chain', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'a' }),
      msg({ role: 'user', content: 'next' }),
      msg({ role: 'assistant', kind: 'summary', content: 's', covers: { from: 2, to: 2 } }),
      msg({ role: 'assistant', content: 'b' }),
    ]
    expect(h.map((m) => m.parentSeq)).toEqual([null, 1, 2, 3, 3])
    expect(deriveParents(h).leaf).toBe(5)
  })
})

describe('a branch of the tree', () => {
  /** q a · q2 b  and, edited at q2: q2' c */
  function edited() {
    const msg = messageBuilder()
    return [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'a' }),
      msg({ role: 'user', content: 'q2' }),
      msg({ role: 'assistant', content: 'b' }),
      msg({ role: 'user', content: "q2'", parentSeq: 2 }),
      msg({ role: 'assistant', content: 'c' }),
    ]
  }

  it('is the path from the first message to its tip, whichever branch is open', () => {
    const h = edited()
    expect(contents(branchOf(h, 4))).toEqual(['q', 'a', 'q2', 'b'])
    expect(contents(branchOf(h, 6))).toEqual(['q', 'a', "q2'", 'c'])
    expect(contents(branchOf(h, 2))).toEqual(['q', 'a'])
    expect(branchOf(h, null)).toEqual([])
  })

  it('holds the summaries whose covered messages are on it, wherever they were written', () => {
    const h = edited()
    const msg = messageBuilder()
    // a summary of q·a written on the first branch, after b
    const summary = { ...msg({ role: 'assistant', kind: 'summary', content: 's' }) }
    Object.assign(summary, { seq: 7, id: 'm7', parentSeq: 4, covers: { from: 1, to: 2 } })
    // and one of q2·b, which only the first branch holds
    const other = { ...summary, seq: 8, id: 'm8', covers: { from: 3, to: 4 } }
    const all = [...h, summary, other]
    expect(contents(branchOf(all, 6))).toEqual(['q', 'a', "q2'", 'c', 's'])
    expect(branchOf(all, 4).map((m) => m.seq)).toEqual([1, 2, 3, 4, 7, 8])
  })

  it('switching to a version opens the newest conversation that went on from it', () => {
    const h = edited()
    const msg = messageBuilder()
    const later = { ...msg({ role: 'user', content: 'q3' }), seq: 7, id: 'm7', parentSeq: 4 }
    const all = [...h, later]
    expect(newestLeafUnder(all, 3)).toBe(7)
    expect(newestLeafUnder(all, 5)).toBe(6)
    expect(newestLeafUnder(all, 1)).toBe(7)
  })
})

describe('where a new branch may start', () => {
  /** q · A(call x, call y) rx ry · B "done" */
  function withTools(answered: boolean) {
    const msg = messageBuilder()
    const calls = [
      { id: 'x', name: 'read', arguments: '{}' },
      { id: 'y', name: 'read', arguments: '{}' },
    ]
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: '', toolCalls: calls }),
      msg({ role: 'tool', content: 'rx', toolCallId: 'x' }),
    ]
    if (answered) {
      h.push(msg({ role: 'tool', content: 'ry', toolCallId: 'y' }))
      h.push(msg({ role: 'assistant', content: 'done' }))
    }
    return h
  }

  it('after a message with tool calls: after their last result, so the calls keep them', () => {
    const h = withTools(true)
    expect(continuationPoint(h, 2)).toMatchObject({ ok: true, value: { seq: 4 } })
    expect(continuationPoint(h, 'm3')).toMatchObject({ ok: true, value: { seq: 4 } })
    expect(continuationPoint(h, 5)).toMatchObject({ ok: true, value: { seq: 5 } })
    expect(continuationPoint(h, 1)).toMatchObject({ ok: true, value: { seq: 1 } })
  })

  it('refuses to go on after calls with no result, a summary, or a message that is not there', () => {
    const open = continuationPoint(withTools(false), 2)
    expect(open).toMatchObject({ ok: false, code: 'conflict' })
    expect(!open.ok && open.message).toMatch(/tool calls that have no result/)
    expect(continuationPoint(withTools(true), 99)).toMatchObject({ ok: false, code: 'not_found' })
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', kind: 'summary', content: 's', covers: { from: 1, to: 1 } }),
    ]
    const summary = continuationPoint(h, 2)
    expect(!summary.ok && summary.message).toMatch(/summary/)
  })

  it('edits only a message the user wrote; answers again the user message an answer answers', () => {
    const h = withTools(true)
    expect(editTarget(h, 1)).toMatchObject({ ok: true, value: { seq: 1 } })
    expect(editTarget(h, 2)).toMatchObject({ ok: false, code: 'conflict' })
    expect(answerTarget(h, 5)).toMatchObject({ ok: true, value: { seq: 1 } })
    expect(answerTarget(h, 'm4')).toMatchObject({ ok: true, value: { seq: 1 } })
    expect(answerTarget(h, 1)).toMatchObject({ ok: true, value: { seq: 1 } })
  })

  it('a question asked again after a failed answer is a new version of it, not a second one', () => {
    const msg = messageBuilder()
    const failed = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'cut', status: 'interrupted' }),
    ]
    expect(retriedMessage(failed, 'q')?.seq).toBe(1)
    expect(retriedMessage(failed, 'other')).toBeNull()
    const answered = [...failed, msg({ role: 'assistant', content: 'whole' })]
    expect(retriedMessage(answered, 'q')).toBeNull()
  })
})
