/**
 * Finding tool calls that never got a result (the process died in the middle of a turn)
 * and the synthetic results that answer them.
 */
import type { NewMessage, ToolCallRecord } from '../../../src-preload/contract/dto'
import { readToolCalls } from './row-check'

/** the chain's messages (not summaries or notices), in seq order */
export interface CallScanRow {
  seq: number
  parent_seq: number | null
  role: string
  turn_id: string | null
  tool_calls: string | null
  tool_call_id: string | null
}

export interface DanglingCall {
  call: ToolCallRecord
  /** the assistant message that made the call */
  assistantSeq: number
  turnId: string | null
  /** the message its result goes after: the last result of the call's message stored so far */
  after: number
}

export const INTERRUPTED_RESULT =
  '[interrupted] Cairn stopped before this tool call finished; it was not completed and there is no result. ' +
  'The tool may or may not have run: check its effects before relying on them or calling it again.'

/**
 * The calls of an assistant message are answered by the tool messages that follow it, one
 * after another, each the child of the one before (some servers reuse ids such as
 * `call_0` in every turn, so a result counts only there). A call with no result there is
 * dangling when nothing else follows its message's results yet: the turn was interrupted
 * before it ended, and its results go at that end. Where the conversation went on after
 * an unanswered call (an imported or damaged history), nothing is added: a result there
 * would start a branch, and the request view leaves the call out instead. Returned in
 * history order (by message, then by call).
 */
export function findDanglingToolCalls(rows: CallScanRow[]): DanglingCall[] {
  const children = new Map<number, CallScanRow[]>()
  for (const row of rows) {
    if (row.parent_seq === null) continue
    const list = children.get(row.parent_seq)
    if (list) list.push(row)
    else children.set(row.parent_seq, [row])
  }
  const dangling: DanglingCall[] = []
  for (const row of rows) {
    if (row.role !== 'assistant' || row.tool_calls === null) continue
    // calls that cannot be read (a damaged row) cannot be answered either: skipped
    const calls = readToolCalls(row.tool_calls) ?? []
    const open = new Map(calls.map((c) => [c.id, c]))
    let tip = row.seq
    for (;;) {
      const next = (children.get(tip) ?? []).find(
        (c) => c.role === 'tool' && c.tool_call_id !== null && open.has(c.tool_call_id),
      )
      if (!next) break
      open.delete(next.tool_call_id!)
      tip = next.seq
    }
    if (open.size === 0 || (children.get(tip) ?? []).length > 0) continue
    for (const call of calls)
      if (open.has(call.id))
        dangling.push({ call, assistantSeq: row.seq, turnId: row.turn_id, after: tip })
  }
  return dangling
}

/** the synthetic result of a dangling call, after `parentSeq` (its message's results so far) */
export function interruptedResult(d: DanglingCall, parentSeq: number): NewMessage {
  return {
    parentSeq,
    role: 'tool',
    kind: 'message',
    content: INTERRUPTED_RESULT,
    toolCallId: d.call.id,
    toolName: d.call.name,
    turnId: d.turnId,
    status: 'complete',
    failureKind: 'interrupted',
  }
}
