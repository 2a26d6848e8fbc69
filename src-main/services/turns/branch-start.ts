/**
 * Where a turn starts on a session's tree, checked before anything runs or is saved: after
 * an earlier message (`--from`), as a new version of a user message (Edit), or as another
 * answer to one (Regenerate). Refusals are `ExpectedError`s that say why.
 */
import type { ContentPart, SessionRecord } from '../../../src-preload/contract/dto'
import {
  answerTarget,
  continuationPoint,
  editTarget,
  type BranchCheck,
} from '../../core/agent/branch-points'
import type { TurnRequest } from '../../core/agent/turn-state'
import { ExpectedError } from '../../core/errors'
import type { SessionRepository } from '../../core/service-ports'

/** A message of the session: its id, or its number as `cairn sessions show` prints it. */
export type MessageRef = string | number

export type BranchChoice =
  /** a new message after this one (after its tool calls' results, when it holds any) */
  | { after: MessageRef }
  /** a new version of this user message: it follows what that one followed */
  | { replaces: MessageRef }
  /** another answer to this user message (or to the one this answer answers) */
  | { answerAgain: MessageRef }

export type BranchStart = Pick<TurnRequest, 'parentSeq' | 'supersedes' | 'answerAgain'> & {
  /** what the replaced message carried (an edit keeps its attachments) */
  parts?: ContentPart[]
}

function checked<T>(check: BranchCheck<T>): T {
  if (!check.ok) throw new ExpectedError(check.code, check.message)
  return check.value
}

/**
 * The start of a turn in an existing session. Calls an interrupted turn left without
 * results are answered first, so that continuing after them is possible.
 */
export function branchStart(
  store: SessionRepository,
  sessionId: string,
  choice: BranchChoice,
): BranchStart {
  store.repairDanglingToolCalls(sessionId)
  const all = store.listMessages(sessionId)
  if ('after' in choice) {
    return { parentSeq: checked(continuationPoint(all, choice.after)).seq }
  }
  if ('replaces' in choice) {
    const m = checked(editTarget(all, choice.replaces))
    return {
      parentSeq: m.parentSeq,
      supersedes: m.seq,
      ...(m.parts?.length ? { parts: m.parts } : {}),
    }
  }
  return { answerAgain: checked(answerTarget(all, choice.answerAgain)).seq }
}

/**
 * "Branch into new chat" at a message: a new session holding the path up to it (after a
 * message with tool calls, up to their last result, so the calls keep their results).
 */
export function forkAt(store: SessionRepository, sessionId: string, at: MessageRef): SessionRecord {
  const tip = checked(continuationPoint(store.listMessages(sessionId), at))
  return store.forkSession(sessionId, tip.seq)
}

/** a message as the command line names it: its number (`sessions show`), or its id */
export function messageRef(given: string): MessageRef {
  return /^[0-9]+$/.test(given) ? Number(given) : given
}
