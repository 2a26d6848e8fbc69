import type { FailureKind } from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'

/**
 * The text of a tool result that the tool itself did not produce. The failure kind is
 * stored beside it, machine-readable; the text is for the model.
 */
export function syntheticText(kind: FailureKind, name: string, detail?: string): string {
  switch (kind) {
    case 'denied':
      return (
        `The user denied the call to ${name}.` +
        (detail ? ` Their reason: ${detail}${/[.!?…]["'”’)]*$/u.test(detail) ? '' : '.'}` : '') +
        ' Do not call it again with the same arguments unless the user asks you to.'
      )
    case 'cancelled':
      return `The user stopped the turn; the call to ${name} was cancelled and may not have completed.`
    case 'timeout':
      return `The turn ran out of time; the call to ${name} did not complete.`
    case 'invalid_arguments':
      return `The call to ${name} was not run: ${detail ?? 'invalid arguments'}. Fix the arguments and call it again.`
    case 'unknown_tool':
      return `There is no tool named "${name}".${detail ? ` Available tools: ${detail}.` : ''}`
    case 'tool_changed':
      return (
        `The call to ${name} was not run: the tool's description, input schema or server ` +
        'changed after you asked for it. Read its current description and call it again if it still fits.'
      )
    case 'stopped':
      return `The call to ${name} was not run: the turn was stopped${detail ? ` (${detail})` : ''}.`
    case 'interrupted':
      return `Cairn stopped before the call to ${name} finished; it may or may not have completed.`
  }
}

/**
 * The text of a call still unanswered when a turn ends for `reason`. `decided`: the call was
 * allowed (it may have started); a stopped call nobody allowed — it waited for approval, or
 * for its turn — never ran, and the model is told so.
 */
export function danglingText(
  kind: FailureKind,
  name: string,
  reason: TurnEndReason,
  decided: boolean,
): string {
  if (kind === 'cancelled' && !decided)
    return `The user stopped the turn; the call to ${name} was not run.`
  return syntheticText(kind, name, reasonWords(reason))
}

/** The failure kind given to tool calls still unanswered when a turn ends for `reason`. */
export function danglingKindFor(reason: TurnEndReason): FailureKind {
  switch (reason) {
    case 'aborted':
      return 'cancelled'
    case 'deadline':
      return 'timeout'
    default:
      return 'stopped'
  }
}

const REASON_WORDS: Record<TurnEndReason, string> = {
  completed: 'the turn completed',
  aborted: 'stopped by the user',
  max_iterations: 'the limit of LLM calls per turn was reached',
  max_tool_executions: 'the limit of tool executions per turn was reached',
  deadline: 'the turn ran out of time',
  loop: 'the model was repeating itself',
  tool_failure: 'a tool failed and the stop-on-failure policy is on',
  denied: 'a tool call was denied and the stop-on-denial policy is on',
  error: 'an error ended the turn',
}

export function reasonWords(reason: TurnEndReason): string {
  return REASON_WORDS[reason]
}
