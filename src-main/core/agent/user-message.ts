/**
 * A turn's first writes: the calls an interrupted turn left open, answered, and the user's
 * message on the branch the turn goes on. A host does this before it tells the window the
 * message was sent (and before the model's server is probed), so a host that dies after
 * saying "sent" still has the message; a turn run without a host (tests, tools) does it
 * itself when it opens.
 */
import type { ContentPart, StoredMessage } from '../../../src-preload/contract/dto'
import type { SessionStore } from '../ports'
import { retriedMessage } from './branch-points'
import { branchOf, newestLink } from './history-tree'
import { NotSavedError } from './save-failure'
import { capAttachments } from '../attachments/limits'

/** Where a turn begins, and its user's message as stored. */
export interface StoredUserMessage {
  /** tool calls an interrupted turn left open, answered as interrupted */
  repaired: number
  /** the branch the turn goes on, up to where it begins (summaries that apply included) */
  branch: StoredMessage[]
  /** the seq the turn's first message follows (null: it is the first) */
  after: number | null
  /** the user's message; null when the turn answers one again (`answerAgain`) */
  message: StoredMessage | null
}

/** what of a turn's request says where it begins (see `TurnRequest`) */
interface BeginRequest {
  sessionId: string
  turnId: string
  text: string
  parts?: ContentPart[]
  parentSeq?: number | null
  supersedes?: number
  answerAgain?: number
}

/**
 * Answers the calls an interrupted turn left open, reads the branch the turn goes on and
 * stores the user's message after its end (its attachments capped), or, to answer a message
 * again, makes that message the open branch's end. A failed write of the message throws
 * `NotSavedError`.
 */
export function storeUserMessage(store: SessionStore, req: BeginRequest): StoredUserMessage {
  const repaired = store.repairDanglingToolCalls(req.sessionId).length
  const all = store.listMessages(req.sessionId)
  const start = startOf(store, req, all)
  const branch = branchOf(all, start.after)
  if (req.answerAgain !== undefined) {
    store.setLeaf(req.sessionId, req.answerAgain)
    return { repaired, branch, after: start.after, message: null }
  }
  const message = {
    role: 'user' as const,
    content: req.text,
    ...(req.parts && req.parts.length > 0 ? { parts: capAttachments(req.parts) } : {}),
    status: 'complete' as const,
    supersedes: start.supersedes,
  }
  try {
    const saved = store.appendMessage(req.sessionId, {
      turnId: req.turnId,
      parentSeq: start.after,
      ...message,
    })
    return { repaired, branch, after: start.after, message: saved }
  } catch (e) {
    throw new NotSavedError(message, e)
  }
}

/**
 * Where the turn begins: the message its first message follows, and the user message that
 * message is a new version of. Without a place given, after the end of the open branch;
 * asking again there what a failed turn asked makes a new version of that question, so
 * it is not sent twice.
 */
function startOf(
  store: SessionStore,
  req: BeginRequest,
  all: readonly StoredMessage[],
): { after: number | null; supersedes: number | null } {
  if (req.answerAgain !== undefined) return { after: req.answerAgain, supersedes: null }
  const parentOf = (seq: number): number | null => all.find((m) => m.seq === seq)?.parentSeq ?? null
  if (req.parentSeq !== undefined)
    return { after: req.parentSeq, supersedes: req.supersedes ?? null }
  if (req.supersedes !== undefined)
    return { after: parentOf(req.supersedes), supersedes: req.supersedes }
  const leaf = store.getSession(req.sessionId)?.leafSeq
  const end = leaf ?? newestLink(all)
  const retried = retriedMessage(branchOf(all, end), req.text)
  return retried
    ? { after: retried.parentSeq, supersedes: retried.seq }
    : { after: end, supersedes: null }
}
