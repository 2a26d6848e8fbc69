import type { StoredMessage } from '../../../src-preload/contract/dto'
import { childrenOf, isLink } from './history-tree'

/**
 * Where a new branch may start, checked before anything runs or is saved: a new message
 * after an earlier one (`--from`, "Branch into new chat"), a new version of a user message
 * (Edit) and another answer to a user message (Regenerate). A tool call and its results
 * always stay on one branch: a branch never starts between them.
 */
type Message = Pick<
  StoredMessage,
  'id' | 'seq' | 'parentSeq' | 'kind' | 'role' | 'toolCalls' | 'toolCallId' | 'content' | 'status'
>

export type BranchCheck<T> =
  { ok: true; value: T } | { ok: false; code: 'not_found' | 'conflict'; message: string }

const refused = <T>(message: string): BranchCheck<T> => ({ ok: false, code: 'conflict', message })

/** a message of the session by its id or its number (`seq`) */
export function findMessage<T extends Message>(all: readonly T[], ref: string | number): T | null {
  if (typeof ref === 'number') return all.find((m) => m.seq === ref) ?? null
  return all.find((m) => m.id === ref) ?? null
}

function notFound<T>(ref: string | number): BranchCheck<T> {
  const what = typeof ref === 'number' ? `number ${ref}` : `"${ref}"`
  return { ok: false, code: 'not_found', message: `There is no message ${what} in this session.` }
}

/**
 * The message a new one goes after when the user continues from `ref`: the message itself,
 * or, when it holds tool calls (or is one of their results), the last of its results, so
 * the calls keep them. Refused when a call has no result stored (an interrupted turn
 * whose calls were not answered yet) and for a summary, which nothing follows.
 */
export function continuationPoint<T extends Message>(
  all: readonly T[],
  ref: string | number,
): BranchCheck<T> {
  const m = findMessage(all, ref)
  if (!m) return notFound(ref)
  if (!isLink(m)) {
    return refused(
      `Message ${m.seq} is a summary of earlier messages; continue from a message of the conversation.`,
    )
  }
  const bySeq = new Map(all.map((x) => [x.seq, x]))
  // a tool result goes with the call that asked for it
  let owner: T | undefined = m
  while (owner && owner.role === 'tool')
    owner = owner.parentSeq !== null ? bySeq.get(owner.parentSeq) : undefined
  if (!owner || owner.role !== 'assistant' || !owner.toolCalls?.length) {
    return m.role === 'tool'
      ? refused(`Message ${m.seq} is a tool result whose call is not stored; continue from another message.`)
      : { ok: true, value: m }
  }
  return afterResults(all, owner)
}

/** the last result of an assistant message's tool calls, following its results down */
function afterResults<T extends Message>(all: readonly T[], assistant: T): BranchCheck<T> {
  const children = childrenOf(all)
  const bySeq = new Map(all.map((x) => [x.seq, x]))
  const open = new Set((assistant.toolCalls ?? []).map((c) => c.id))
  let tip = assistant
  while (open.size > 0) {
    const next = (children.get(tip.seq) ?? [])
      .map((s) => bySeq.get(s)!)
      .find((c) => c.role === 'tool' && c.toolCallId !== null && open.has(c.toolCallId))
    if (!next) break
    open.delete(next.toolCallId!)
    tip = next
  }
  if (open.size > 0) {
    return refused(
      `Message ${assistant.seq} holds tool calls that have no result (the turn was interrupted), so nothing can follow it yet; continue from an earlier message, or send a message in the chat first (the calls are then marked interrupted).`,
    )
  }
  return { ok: true, value: tip }
}

/** A new version of a user message: it follows what the edited one followed. */
export function editTarget<T extends Message>(
  all: readonly T[],
  ref: string | number,
): BranchCheck<T> {
  const m = findMessage(all, ref)
  if (!m) return notFound(ref)
  if (m.role !== 'user' || m.kind !== 'message') {
    return refused(`Only a message you wrote can be edited; message ${m.seq} is not one.`)
  }
  return { ok: true, value: m }
}

/**
 * Another answer: to the user message `ref` names, or, for an answer (or a tool result of
 * one), to the user message it answers.
 */
export function answerTarget<T extends Message>(
  all: readonly T[],
  ref: string | number,
): BranchCheck<T> {
  const m = findMessage(all, ref)
  if (!m) return notFound(ref)
  const bySeq = new Map(all.map((x) => [x.seq, x]))
  let q: T | undefined = m
  while (q && !(q.role === 'user' && q.kind === 'message'))
    q = q.parentSeq !== null ? bySeq.get(q.parentSeq) : undefined
  if (!q) return refused(`Message ${m.seq} answers no message of yours, so it cannot be answered again.`)
  return { ok: true, value: q }
}

/**
 * When `text` asks again what the user message at the end of the branch asked and that
 * question got no whole answer (its turn failed, was stopped or was cut off), that
 * message: the new one becomes another version of it (a retry), so that the question is
 * not sent twice. Otherwise null.
 */
export function retriedMessage<T extends Message>(branch: readonly T[], text: string): T | null {
  for (let i = branch.length - 1; i >= 0; i--) {
    const m = branch[i]!
    if (m.kind !== 'message') continue
    if (m.role === 'assistant' && (m.status === 'complete' || m.status === 'truncated')) return null
    if (m.role === 'user') return m.content === text ? m : null
  }
  return null
}
