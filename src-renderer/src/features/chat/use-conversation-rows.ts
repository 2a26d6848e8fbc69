/**
 * The rows of the conversation on screen: the stored messages' rows, then the live ones
 * (what is being sent, the running turn, why the last turn ended). The live turn is read as
 * far as its rows go (`useLiveTurnRows`): while an answer only streams text, the rows stay
 * the same array, and only that answer's row renders again (`AnswerRow` follows its item).
 */
import { useEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react'
import type { StoredMessage } from '../../../../src-preload/contract/dto'
import { useLive } from '../../state/context'
import { liveRows, storedRows, type Row } from '../../state/conversation'
import { useLiveTurnRows } from '../../state/live-hooks'
import { NEW_CHAT } from '../../state/live-store'
import type { KeptNotice } from '../../state/live-types'
import type { Conversation } from '../../state/queries'
import { prepareMarkdown } from '../../ui/markdown'

const NO_MESSAGES: StoredMessage[] = []
const NO_NOTICES: Readonly<Record<string, KeptNotice[]>> = {}
/** answers parsed ahead when a conversation opens */
const PREPARE = 10

function lastUser(messages: readonly StoredMessage[]): StoredMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role === 'user' && m.kind === 'message') return m
  }
  return null
}

export interface ConversationRows {
  rows: Row[]
  messages: readonly StoredMessage[]
  /** a message is on its way */
  sending: boolean
  /** older messages of the branch are not loaded yet */
  hasMore: boolean
  /** the summaries shown expanded */
  setExpanded: Dispatch<SetStateAction<ReadonlySet<string>>>
}

export function useConversationRows(
  sessionId: string | null,
  data: Conversation | undefined,
): ConversationRows {
  const k = sessionId ?? NEW_CHAT
  const messages = data?.messages ?? NO_MESSAGES
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const turn = useLiveTurnRows(k)
  const outbox = useLive((s) => s.sessions[k]?.outbox ?? null)
  const ended = useLive((s) => s.sessions[k]?.ended ?? null)
  const notices = useLive((s) => s.sessions[k]?.notices ?? NO_NOTICES)
  const busy = (turn?.running ?? false) || outbox !== null
  const liveTurnId = turn?.turnId ?? null

  const versions = data?.versions
  const hidingId = outbox?.replaces ?? outbox?.answerAgain ?? null
  const hidingFrom = outbox?.replaces ? 'from' : 'after'
  const stored = useMemo(
    () =>
      storedRows({
        messages,
        ...(versions ? { versions } : {}),
        liveTurnId,
        hiding: hidingId ? { messageId: hidingId, from: hidingFrom } : null,
        busy,
        notices,
        expandedSummaries: expanded,
      }),
    [messages, versions, liveTurnId, hidingId, hidingFrom, busy, notices, expanded],
  )
  const storedUser = useMemo(() => {
    const id = liveTurnId ?? outbox?.turnId
    return id ? (messages.find((m) => m.turnId === id && m.role === 'user') ?? null) : null
  }, [messages, liveTurnId, outbox?.turnId])
  const tail = useMemo(
    () => liveRows({ turn, outbox, ended, storedUser, lastUser: lastUser(messages) }),
    [turn, outbox, ended, storedUser, messages],
  )
  const rows = useMemo(() => [...stored, ...tail], [stored, tail])
  usePrepareNewest(sessionId, data)
  return { rows, messages, hasMore: data?.hasMore ?? false, sending: outbox !== null, setExpanded }
}

/** While the list positions itself (a few frames), parse the newest answers it will show. */
function usePrepareNewest(sessionId: string | null, data: Conversation | undefined): void {
  const prepared = useRef<string | null>(null)
  useEffect(() => {
    if (!sessionId || !data || prepared.current === sessionId) return
    prepared.current = sessionId
    const texts = data.messages
      .filter((m) => m.role === 'assistant' && m.content !== '')
      .slice(-PREPARE)
      .reverse()
      .map((m) => m.content)
    let timer = setTimeout(function step() {
      const text = texts.shift()
      if (text === undefined) return
      prepareMarkdown(text)
      timer = setTimeout(step, 0)
    }, 0)
    return () => clearTimeout(timer)
  }, [sessionId, data])
}

const START = 10_000_000

/**
 * Virtuoso keeps the viewport still when items are prepended if `firstItemIndex` drops by
 * their number: find where the old first row went.
 */
export function useFirstItemIndex(rows: readonly Row[]): number {
  const ref = useRef<{ key: string | null; index: number }>({ key: null, index: START })
  const first = rows[0]?.key ?? null
  if (first !== ref.current.key) {
    const at = ref.current.key === null ? -1 : rows.findIndex((r) => r.key === ref.current.key)
    ref.current = { key: first, index: at > 0 ? ref.current.index - at : ref.current.index }
  }
  return ref.current.index
}
