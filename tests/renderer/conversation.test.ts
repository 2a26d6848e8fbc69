import { describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import type { StoredMessage } from '../../src-preload/contract/dto'
import {
  keptNotices,
  liveRows,
  splitToolName,
  storedRows,
  type Row,
} from '../../src-renderer/src/state/conversation'
import { applyEvents, newTurn } from '../../src-renderer/src/state/turn-reducer'

let n = 0
function msg(p: Partial<StoredMessage> & Pick<StoredMessage, 'role'>): StoredMessage {
  n++
  return {
    id: `id${n}`,
    sessionId: 's',
    seq: n,
    parentSeq: n > 1 ? n - 1 : null,
    turnId: 't1',
    kind: 'message',
    content: '',
    parts: null,
    reasoning: null,
    providerExtras: null,
    toolCalls: null,
    toolCallId: null,
    toolName: null,
    provider: 'p',
    model: 'm',
    status: 'complete',
    failureKind: null,
    isError: false,
    usage: null,
    supersedes: null,
    durationMs: null,
    reasoningMs: null,
    decidedBy: null,
    servedModel: null,
    createdAt: 0,
    ...p,
  }
}
const base = { liveTurnId: null, hiding: null, busy: false }
const kinds = (rows: Row[]) => rows.map((r) => r.kind)
const answerRows = (rows: Row[]) => rows.flatMap((r) => (r.kind === 'answer' ? [r] : []))
const userRows = (rows: Row[]) => rows.flatMap((r) => (r.kind === 'user' ? [r] : []))

describe('stored messages as rows', () => {
  it('a user message names its attached resources and what its total left out of them', () => {
    n = 0
    const note =
      '[6 images (about 37 MB) from the attachments left out: at most 8 MB of images are kept]'
    const messages = [
      msg({
        role: 'user',
        content: 'look',
        parts: [
          { type: 'resource_link', uri: 'pics://many', name: 'many pictures' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
          { type: 'text', text: note },
        ],
      }),
      msg({ role: 'assistant', content: 'seen' }),
    ]
    expect(userRows(storedRows({ ...base, messages }))[0]).toMatchObject({
      attached: [{ uri: 'pics://many', name: 'many pictures' }],
      attachedCut: [note],
    })
  })

  it('matches tool results to their calls by position: ids reused across turns show their own results', () => {
    n = 0
    const call = (turnId: string) => ({
      role: 'assistant' as const,
      turnId,
      toolCalls: [{ id: 'call_0', name: 'everything__echo', arguments: '{"message":"x"}' }],
    })
    const messages = [
      msg({ role: 'user', content: 'first', turnId: 't1' }),
      msg(call('t1')),
      msg({
        role: 'tool',
        turnId: 't1',
        toolCallId: 'call_0',
        content: 'denied by the user',
        isError: true,
        failureKind: 'denied',
        decidedBy: 'user',
      }),
      msg({ role: 'assistant', turnId: 't1', content: 'ok' }),
      msg({ role: 'user', content: 'second', turnId: 't2' }),
      msg(call('t2')),
      msg({
        role: 'tool',
        turnId: 't2',
        toolCallId: 'call_0',
        content: 'Echo: x',
        durationMs: 12,
        decidedBy: 'rule',
      }),
      msg({ role: 'assistant', turnId: 't2', content: 'done' }),
    ]
    const tools = answerRows(storedRows({ ...base, messages })).flatMap((r) => r.answer.tools)
    expect(tools.map((t) => [t.status, t.result, t.decidedBy, t.durationMs])).toEqual([
      ['denied', 'denied by the user', 'user', null],
      ['done', 'Echo: x', 'rule', 12],
    ])
    expect(tools[0]).toMatchObject({ server: 'everything', tool: 'echo' })
  })

  it('two calls with one id in one message get their results in order', () => {
    n = 0
    const messages = [
      msg({ role: 'user', content: 'q' }),
      msg({
        role: 'assistant',
        toolCalls: [
          { id: 'a', name: 'read_file', arguments: '{}' },
          { id: 'a', name: 'read_file', arguments: '{}' },
        ],
      }),
      msg({ role: 'tool', toolCallId: 'a', content: 'one' }),
      msg({ role: 'tool', toolCallId: 'a', content: 'two', isError: true }),
    ]
    const tools = answerRows(storedRows({ ...base, messages }))[0]!.answer.tools
    expect(tools.map((t) => [t.result, t.status])).toEqual([
      ['one', 'done'],
      ['two', 'failed'],
    ])
    expect(tools[0]).toMatchObject({ server: 'cairn', tool: 'read_file' })
  })

  it('shows the open branch with "‹ i/n ›" at the answers and the edits that have versions', () => {
    n = 0
    // the host sends the open branch: q (1), its second answer (4), then an edit of b (7)
    // whose first version (5) is on another branch
    const messages = [
      msg({ role: 'user', content: 'q', turnId: 't1' }),
      msg({
        role: 'assistant',
        content: 'second answer',
        turnId: 't2',
        seq: 4,
        parentSeq: 1,
        usage: { inputTokens: 4, outputTokens: 5, estimated: true },
      }),
      msg({ role: 'user', content: 'b, edited', turnId: 't4', seq: 7, parentSeq: 4 }),
      msg({ role: 'assistant', content: 'B', turnId: 't4', seq: 8, parentSeq: 7 }),
    ]
    const versions = { 4: [2, 4], 7: [5, 7] }
    const rows = storedRows({ ...base, messages, versions })
    expect(kinds(rows)).toEqual(['user', 'answer', 'user', 'answer'])
    expect(answerRows(rows)[0]!.footer).toMatchObject({
      versions: { index: 1, count: 2, seqs: [2, 4] },
      canRegenerate: true,
      userMessageId: 'id1',
      usage: { inputTokens: 4, outputTokens: 5, estimated: true },
    })
    expect(userRows(rows).map((u) => [u.text, u.canEdit, u.versions])).toEqual([
      ['q', true, null],
      ['b, edited', true, { index: 1, count: 2, seqs: [5, 7] }],
    ])
    // every exchange can be regenerated, not only the newest; Continue only on the newest
    expect(answerRows(rows).map((a) => [a.footer!.canRegenerate, a.footer!.continuable])).toEqual([
      [true, false],
      [true, true],
    ])
    expect(answerRows(rows)[1]!.footer!.versions).toBeNull()
  })

  it('while a turn runs nothing can be edited, regenerated or switched', () => {
    n = 0
    const messages = [
      msg({ role: 'user', content: 'a', turnId: 't0' }),
      msg({ role: 'assistant', content: 'A', turnId: 't0' }),
      msg({ role: 'user', content: 'b', turnId: 't1' }),
      msg({ role: 'assistant', content: 'B', turnId: 't1' }),
    ]
    const busy = storedRows({ ...base, messages, versions: { 3: [3, 9] }, busy: true })
    expect(userRows(busy).some((u) => u.canEdit || u.versions)).toBe(false)
    expect(answerRows(busy).some((a) => a.footer?.canRegenerate)).toBe(false)
  })

  it('hides what an edit or a regenerate on its way replaces, and the live turn’s own messages', () => {
    n = 0
    const messages = [
      msg({ role: 'user', content: 'q', turnId: 't1' }),
      msg({ role: 'assistant', content: 'old', turnId: 't1' }),
      msg({ role: 'user', content: 'next', turnId: 't2' }),
      msg({ role: 'assistant', content: 'streamed, shown from events', turnId: 't2' }),
    ]
    // an edit of the second message on its way hides it and what follows it
    const edit = { messageId: 'id3', from: 'from' as const }
    expect(kinds(storedRows({ ...base, messages, hiding: edit }))).toEqual(['user', 'answer'])
    // another answer to the first hides what followed it, and keeps the question
    const again = { messageId: 'id1', from: 'after' as const }
    expect(kinds(storedRows({ ...base, messages, hiding: again }))).toEqual(['user'])
    const rows = storedRows({ ...base, messages, liveTurnId: 't2' })
    expect(kinds(rows)).toEqual(['user', 'answer', 'user'])
    expect(userRows(rows)[1]!.canEdit).toBe(false)
  })
})

describe('live rows', () => {
  it('shows the message being sent until the stored history has it', () => {
    const rows = liveRows({
      turn: null,
      outbox: { text: 'hello', replaces: null, turnId: null },
      ended: null,
      storedUser: null,
      lastUser: null,
    })
    expect(rows).toMatchObject([{ kind: 'user', text: 'hello', pending: true }])
  })

  it('a failed turn ends with its reason and a Retry that resends the same message', () => {
    n = 0
    const user = msg({ role: 'user', content: 'again?' })
    const turn = { ...newTurn('t1', 's'), running: false, endReason: 'error' as const }
    const rows = liveRows({
      turn,
      outbox: null,
      ended: {
        turnId: 't1',
        reason: 'error',
        error: { code: 'network', message: 'down' },
        message: 'down',
      },
      storedUser: user,
      lastUser: user,
    })
    expect(rows).toMatchObject([{ kind: 'end', retry: { messageId: user.id, text: 'again?' } }])
  })
})

describe('tool names', () => {
  it('splits an MCP tool name at its first double underscore; built-ins keep theirs', () => {
    expect(splitToolName('everything__get_sum')).toEqual({ server: 'everything', tool: 'get_sum' })
    expect(splitToolName('run_command')).toEqual({ server: 'cairn', tool: 'run_command' })
  })
})

describe('the end of a turn', () => {
  it('the stored rows that replace a live turn keep its row keys and its notices in place', () => {
    n = 0
    const user = msg({ role: 'user', content: 'q', turnId: 'T' })
    let seq = 0
    const ev = (e: Record<string, unknown>) =>
      ({ sessionId: 's', turnId: 'T', at: 0, seq: seq++, ...e }) as SequencedAgentEvent
    const turn = applyEvents(newTurn('T', 's'), [
      ev({ type: 'turn_start', model: 'm', provider: 'p' }),
      ev({ type: 'notice', level: 'warning', message: 'Older tool output was shortened.' }),
      ev({ type: 'text_delta', text: 'Looking.' }),
      ev({
        type: 'message_saved',
        messageId: 'a1',
        messageSeq: 2,
        role: 'assistant',
        status: 'complete',
      }),
      ev({ type: 'loop_warning', name: 'x', count: 3 }),
      ev({ type: 'text_delta', text: 'Done.' }),
      ev({
        type: 'message_saved',
        messageId: 'a2',
        messageSeq: 3,
        role: 'assistant',
        status: 'complete',
      }),
      ev({ type: 'turn_end', reason: 'completed' }),
    ]).view
    const live = [
      ...storedRows({ ...base, messages: [user], liveTurnId: 'T' }),
      ...liveRows({ turn, outbox: null, ended: null, storedUser: user, lastUser: user }),
    ]
    const stored = storedRows({
      ...base,
      messages: [
        user,
        msg({ id: 'a1', role: 'assistant', content: 'Looking.', turnId: 'T' }),
        msg({ id: 'a2', role: 'assistant', content: 'Done.', turnId: 'T' }),
      ],
      notices: { T: keptNotices(turn) },
    })
    expect(stored.map((r) => [r.kind, r.key])).toEqual(live.map((r) => [r.kind, r.key]))
    expect(kinds(stored)).toEqual(['user', 'notice', 'answer', 'notice', 'answer'])
  })
})
