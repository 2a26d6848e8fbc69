/**
 * Finding tool calls that never got a result (the process died in the middle of a turn)
 * and the synthetic results that answer them.
 */
import type { NewMessage, ToolCallRecord } from '../../../src-preload/contract/dto'
import { readToolCalls } from './row-check'

/** assistant messages with tool calls and tool messages, in seq order */
export interface CallScanRow {
  seq: number
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
}

export const INTERRUPTED_RESULT =
  '[interrupted] Cairn stopped before this tool call finished; it was not completed and there is no result. ' +
  'The tool may or may not have run: check its effects before relying on them or calling it again.'

/**
 * Walks the history in order. A tool message answers the most recent unanswered call with
 * its id (some servers reuse ids such as `call_0` in every turn, so "a later result with
 * that id" alone is not enough). A call still open when another call reuses its id, or at
 * the end, is dangling. Returned in history order (by message, then by call).
 */
export function findDanglingToolCalls(rows: CallScanRow[]): DanglingCall[] {
  const open = new Map<string, DanglingCall>()
  const dangling: DanglingCall[] = []
  for (const row of rows) {
    if (row.role === 'tool' && row.tool_call_id !== null) {
      open.delete(row.tool_call_id)
    } else if (row.role === 'assistant' && row.tool_calls !== null) {
      // calls that cannot be read (a damaged row) cannot be answered either: skipped
      for (const call of readToolCalls(row.tool_calls) ?? []) {
        const earlier = open.get(call.id)
        if (earlier) dangling.push(earlier)
        open.set(call.id, { call, assistantSeq: row.seq, turnId: row.turn_id })
      }
    }
  }
  dangling.push(...open.values())
  // a Map entry replaced under a re-used id keeps its old position: sort by message
  return dangling
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.assistantSeq - b.d.assistantSeq || a.i - b.i)
    .map(({ d }) => d)
}

export function interruptedResult(d: DanglingCall): NewMessage {
  return {
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
