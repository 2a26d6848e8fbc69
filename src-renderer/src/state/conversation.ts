/**
 * What the conversation shows, as rows: the stored messages of the open branch (tool
 * results folded into the calls they answer), then the live turn. Pure functions of their
 * inputs.
 *
 * - A tool result belongs to the call at its position: the assistant message just before
 *   the run of tool messages it is in, and the first call there with its id that is not
 *   answered yet. Providers reuse ids (`call_0` in every turn), so an id alone could show
 *   another call's result.
 * - The stored history is a tree and the host sends the open branch: an edited message or
 *   another answer is a version at its point, and "‹ 2/3 ›" (`versions`) opens the branch
 *   through another one; the conversation below follows it.
 */
import type { BranchVersions, StoredMessage } from '../../../src-preload/contract/dto'
import { exchangeRows } from './exchange-rows'
import type { KeptNotice } from './live-types'
import { isUser, type Exchange, type Row, type Versions } from './rows'
import { placeSummaries } from './summary-placement'

export type { AnswerView, ExchangeFooter, Row, Versions } from './rows'
export { splitToolName, storedAnswer } from './exchange-rows'
export { keptNotices, liveRows, type LiveRowsInput } from './live-rows'

function exchanges(messages: readonly StoredMessage[]): Exchange[] {
  const out: Exchange[] = []
  let current: Exchange | null = null
  for (const m of messages) {
    if (isUser(m) || !current) {
      current = { user: isUser(m) ? m : null, messages: [] }
      out.push(current)
    }
    current.messages.push(m)
  }
  return out
}

/** What is on its way hides what it replaces: from an edited message, after a regenerated one. */
export interface Hiding {
  /** the message id */
  messageId: string
  /** `from`: the message and what follows it (Edit); `after`: what follows it (Regenerate) */
  from: 'from' | 'after'
}

export interface StoredRowsInput {
  /** the open branch, as loaded */
  messages: readonly StoredMessage[]
  /** the versions along it (absent: none) */
  versions?: BranchVersions
  /** the live turn: its stored messages (but the user's) are shown from its events */
  liveTurnId: string | null
  /** a regenerate or edit on its way hides what it replaces */
  hiding: Hiding | null
  /** a turn runs or a message is on its way: nothing can be regenerated, edited or switched */
  busy: boolean
  /** notices ended turns showed, by turn */
  notices?: Readonly<Record<string, KeptNotice[]>>
  /** summaries whose covered messages are shown (see `summary-placement.ts`) */
  expandedSummaries?: ReadonlySet<string>
}

/** the branch without what an edit or a regenerate on its way replaces */
function shownMessages(
  messages: readonly StoredMessage[],
  hiding: Hiding | null,
): readonly StoredMessage[] {
  if (!hiding) return messages
  const at = messages.findIndex((m) => m.id === hiding.messageId)
  if (at < 0) return messages
  return messages.slice(0, hiding.from === 'from' ? at : at + 1)
}

const NONE_EXPANDED: ReadonlySet<string> = new Set()
const NO_VERSIONS: BranchVersions = {}

/** the versions at a message, for "‹ 2/3 ›" */
export function versionsAt(versions: BranchVersions, seq: number | undefined): Versions | null {
  const seqs = seq === undefined ? undefined : versions[seq]
  if (!seqs || seqs.length < 2 || seq === undefined) return null
  return { index: seqs.indexOf(seq), count: seqs.length, seqs }
}

/** Rows of the stored messages. */
export function storedRows(input: StoredRowsInput): Row[] {
  const shown = shownMessages(input.messages, input.hiding)
  const placed = placeSummaries(shown, input.expandedSummaries ?? NONE_EXPANDED)
  const all = exchanges(placed.messages)
  const versions = input.versions ?? NO_VERSIONS
  const rows: Row[] = []
  all.forEach((x, n) => {
    exchangeRows(rows, x, {
      versionsOf: (seq) => (input.busy ? null : versionsAt(versions, seq)),
      canChange: !input.busy,
      newest: n === all.length - 1,
      liveTurnId: input.liveTurnId,
      notices: input.notices ?? {},
    })
  })
  if (placed.info.size === 0) return rows
  return rows.map((r) => {
    const info = r.kind === 'summary' ? placed.info.get(r.key) : undefined
    return info && r.kind === 'summary' ? { ...r, ...info } : r
  })
}
