/**
 * What the conversation shows, as rows: the stored messages (tool results folded into the
 * calls they answer), then the live turn. Pure functions of their inputs.
 *
 * - A tool result belongs to the call at its position: the assistant message just before
 *   the run of tool messages it is in, and the first call there with its id that is not
 *   answered yet. Providers reuse ids (`call_0` in every turn), so an id alone could show
 *   another call's result.
 * - The stored history is append-only: a user message that `supersedes` an earlier one
 *   (regenerate, edit, retry) makes that earlier exchange an older version. The newest
 *   version is shown in its place, and the user can flip between the versions.
 */
import type { StoredMessage } from '../../../src-preload/contract/dto'
import { exchangeRows } from './exchange-rows'
import type { KeptNotice } from './live-types'
import { isUser, type Exchange, type Row } from './rows'
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

export interface StoredRowsInput {
  messages: readonly StoredMessage[]
  /** the live turn: its stored messages (but the user's) are shown from its events */
  liveTurnId: string | null
  /** a regenerate or edit on its way hides the exchange it replaces */
  hiding: string | null
  /** slot → the version picked (absent: the newest) */
  picked: Readonly<Record<string, number>>
  /** a turn runs or a message is on its way: nothing can be regenerated or edited */
  busy: boolean
  /** notices ended turns showed, by turn */
  notices?: Readonly<Record<string, KeptNotice[]>>
  /** summaries whose covered messages are shown (see `summary-placement.ts`) */
  expandedSummaries?: ReadonlySet<string>
}

interface VersionChain {
  /** the slot the versions share (the newest version's user message id) */
  slot: string
  /** oldest first; the last is the newest */
  chain: Exchange[]
}

/** The exchanges shown, each with the earlier versions it replaced. */
function versionChains(messages: readonly StoredMessage[], hiding: string | null): VersionChain[] {
  const all = exchanges(messages)
  const byUserSeq = new Map<number, Exchange>()
  for (const x of all) if (x.user) byUserSeq.set(x.user.seq, x)
  const superseded = new Set<Exchange>()
  for (const x of all) {
    const prev = x.user?.supersedes != null ? byUserSeq.get(x.user.supersedes) : undefined
    if (prev) superseded.add(prev)
  }
  const shown = all.filter((x) => !superseded.has(x) && x.user?.id !== hiding)
  return shown.map((newest, n) => {
    const chain: Exchange[] = [newest]
    for (let x = newest; x.user?.supersedes != null;) {
      const prev = byUserSeq.get(x.user.supersedes)
      if (!prev || chain.includes(prev)) break
      chain.unshift(prev)
      x = prev
    }
    return { slot: newest.user?.id ?? `x${n}`, chain }
  })
}

/**
 * The version that holds a stored message, when it is an earlier one (what `picked` must
 * say to show it); null when the message is in a newest version or not there at all.
 */
export function earlierVersionOf(
  messages: readonly StoredMessage[],
  messageId: string,
): { slot: string; index: number } | null {
  for (const { slot, chain } of versionChains(messages, null)) {
    const index = chain.findIndex((x) => x.messages.some((m) => m.id === messageId))
    if (index >= 0) return index < chain.length - 1 ? { slot, index } : null
  }
  return null
}

const NONE_EXPANDED: ReadonlySet<string> = new Set()

/** Rows of the stored messages. */
export function storedRows(input: StoredRowsInput): Row[] {
  const placed = placeSummaries(input.messages, input.expandedSummaries ?? NONE_EXPANDED)
  const chains = versionChains(placed.messages, input.hiding)
  const rows: Row[] = []
  chains.forEach(({ slot, chain }, n) => {
    const picked = input.picked[slot]
    const index = picked !== undefined && picked < chain.length ? picked : chain.length - 1
    const versions = chain.length > 1 ? { slot, index, count: chain.length } : null
    const last = n === chains.length - 1
    exchangeRows(
      rows,
      chain[index]!,
      versions,
      last && !input.busy && index === chain.length - 1,
      input.liveTurnId,
      input.notices ?? {},
    )
  })
  if (placed.info.size === 0) return rows
  return rows.map((r) => {
    const info = r.kind === 'summary' ? placed.info.get(r.key) : undefined
    return info && r.kind === 'summary' ? { ...r, ...info } : r
  })
  return rows
}
