/** Rows of what is on its way: the outbox, the live turn, why the last turn ended. */
import type { StoredMessage } from '../../../src-preload/contract/dto'
import type { KeptNotice, Outbox, TurnEnd } from './live-types'
import type { Row } from './rows'
import type { TurnItem, TurnView } from './turn-reducer'

/** The notices of a turn's live view, with their place among its answers. */
export function keptNotices(turn: TurnView): KeptNotice[] {
  const out: KeptNotice[] = []
  let answers = 0
  for (const it of turn.items) {
    if (it.kind === 'answer') answers++
    else if (!it.retry)
      out.push({ key: it.key, level: it.level, message: it.message, after: answers })
  }
  return out
}

export interface LiveRowsInput {
  turn: TurnView | null
  outbox: Outbox | null
  ended: TurnEnd | null
  /** the stored user message the live turn or the outbox answers, when stored */
  storedUser: StoredMessage | null
  /** the newest stored user message (what Retry resends when the turn failed) */
  lastUser: StoredMessage | null
}

/** Rows of what is on its way: the outbox, the live turn, why the last turn ended. */
export function liveRows(input: LiveRowsInput): Row[] {
  const rows: Row[] = []
  const { turn, outbox } = input
  // a regenerate sends no message of its own
  if (outbox && !input.storedUser && !outbox.answerAgain) {
    rows.push({
      kind: 'user',
      key: `outbox:${outbox.turnId ?? 'sending'}`,
      messageId: null,
      text: outbox.text,
      pending: true,
      canEdit: false,
      versions: null,
    })
  }
  if (turn) {
    const answers = turn.items.filter(
      (i): i is Extract<TurnItem, { kind: 'answer' }> => i.kind === 'answer',
    )
    const lastAnswer = answers[answers.length - 1]
    for (const it of turn.items) {
      if (it.kind === 'notice') {
        rows.push({
          kind: 'notice',
          key: it.key,
          level: it.level,
          message: it.message,
          ...(it.retry
            ? { until: it.retry.until, attempt: `${it.retry.attempt}/${it.retry.maxAttempts}` }
            : {}),
        })
        continue
      }
      rows.push({
        kind: 'answer',
        key: it.key,
        answer: it,
        live: turn.running,
        model: turn.model,
        footer:
          !turn.running && it === lastAnswer
            ? {
                usage: turn.usage,
                markdown: answers
                  .map((a) => a.text)
                  .filter(Boolean)
                  .join('\n\n'),
                canRegenerate: input.storedUser !== null,
                userMessageId: input.storedUser?.id ?? null,
                userText: input.storedUser?.content ?? '',
                versions: null,
                turnId: turn.turnId,
              }
            : null,
      })
    }
  }
  if (input.ended && !turn?.running) {
    const retryFrom = input.storedUser ?? input.lastUser
    rows.push({
      kind: 'end',
      key: `end:${input.ended.turnId}`,
      end: input.ended,
      retry: retryFrom ? { messageId: retryFrom.id, text: retryFrom.content } : null,
    })
  }
  return rows
}
