/**
 * Keeps the live store in step with the host: applies agent events (per session, a batch
 * per frame), attaches to turns already running (from their first event), refreshes the
 * stored messages when a turn saved its user message or ended, and re-syncs after a
 * reconnection.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { Platform } from '../platform/types'
import { emptyLive, NEW_CHAT, type LiveStore, type SessionLive } from './live-types'
import { DATABASE_DAMAGED } from './damage-watch'
import { keptNotices } from './conversation'
import { fetchTail, keys, type Conversation } from './queries'
import { applyEvents, endMessage, newTurn, type TurnView } from './turn-reducer'

export interface LiveSync {
  refresh(sessionId: string): Promise<void>
  attach(sessionId: string): Promise<void>
  setRunning(sessionId: string, turnId: string | null): void
  applyBatch(events: SequencedAgentEvent[]): void
  /** the turn was a new chat's first, failed before any answer, and its session is gone */
  discarded(turnId: string): boolean
  sync(): Promise<void>
}

function discardedText(events: SequencedAgentEvent[], turnId: string): string | null {
  for (const e of events) {
    if (e.type === 'turn_end' && e.turnId === turnId && e.discardedSession) {
      return e.discardedSession.text
    }
  }
  return null
}

export function createLiveSync(
  store: LiveStore,
  platform: Platform,
  client: QueryClient,
): LiveSync {
  const { bridge } = platform
  const attaching = new Map<string, SequencedAgentEvent[]>()
  const discardedTurns = new Set<string>()

  const patchSession = (sessionId: string, p: Partial<SessionLive>): void =>
    store.setState((s) => ({
      sessions: {
        ...s.sessions,
        [sessionId]: { ...(s.sessions[sessionId] ?? emptyLive), ...p },
      },
    }))

  /** Loads the newest stored messages; drops the outbox and an ended turn they now hold. */
  const refreshes = new Map<string, number>()
  async function refresh(sessionId: string): Promise<void> {
    // a later refresh wins over an earlier one that answers late
    const n = (refreshes.get(sessionId) ?? 0) + 1
    refreshes.set(sessionId, n)
    let data: Conversation
    try {
      data = await fetchTail(bridge, client, sessionId)
    } catch {
      return
    }
    if (refreshes.get(sessionId) !== n) return
    client.setQueryData(keys.conversation(sessionId), data)
    const live = store.getState().sessions[sessionId]
    if (!live) return
    const stored = new Set(data.messages.map((m) => m.turnId))
    const p: Partial<SessionLive> = {}
    if (live.outbox?.turnId && stored.has(live.outbox.turnId)) p.outbox = null
    // a turn that could not store what it streamed stays on screen: the stored messages lack it
    const code = live.turn?.error?.code
    const unsaved = code === DATABASE_DAMAGED || code === 'storage'
    if (live.turn && !live.turn.running && !unsaved && stored.has(live.turn.turnId)) {
      p.turn = null
      const kept = keptNotices(live.turn)
      if (kept.length > 0) p.notices = { ...live.notices, [live.turn.turnId]: kept }
    }
    if (Object.keys(p).length > 0) patchSession(sessionId, p)
  }

  async function attach(sessionId: string): Promise<void> {
    if (attaching.has(sessionId)) return
    attaching.set(sessionId, [])
    const r = await bridge.request('chat.attach', { sessionId })
    const buffered = attaching.get(sessionId) ?? []
    attaching.delete(sessionId)
    if (!r.ok) return
    const { turn, pendingApprovals, pendingElicitations = [] } = r.data
    store.setState((s) => ({
      approvals: [...s.approvals.filter((a) => a.sessionId !== sessionId), ...pendingApprovals],
      elicitations: [
        ...s.elicitations.filter((q) => q.sessionId !== sessionId),
        ...pendingElicitations,
      ],
    }))
    const live = store.getState().sessions[sessionId] ?? emptyLive
    if (!turn) {
      if (live.turn?.running) {
        // it ended while we were away
        patchSession(sessionId, { turn: { ...live.turn, running: false } })
        setRunning(sessionId, null)
      }
      void refresh(sessionId)
    } else {
      let view = live.turn?.turnId === turn.turnId ? live.turn : newTurn(turn.turnId, sessionId)
      view = applyEvents(view, turn.events).view
      view = applyEvents(view, buffered).view
      patchSession(sessionId, { turn: view })
      setRunning(sessionId, view.running ? turn.turnId : null)
      if (view.userSaved) void refresh(sessionId)
      if (!view.running) onEnded(sessionId, view)
    }
    // events of a turn that began after the host answered
    const later = buffered.filter((e) => e.turnId !== turn?.turnId)
    if (later.length > 0) applySession(sessionId, later)
  }

  function setRunning(sessionId: string, turnId: string | null): void {
    store.setState((s) => {
      if ((s.running[sessionId] ?? null) === turnId) return {}
      const running = { ...s.running }
      if (turnId) running[sessionId] = turnId
      else delete running[sessionId]
      return { running }
    })
  }

  function onEnded(sessionId: string, view: TurnView): void {
    const message = endMessage(view)
    patchSession(sessionId, {
      ended:
        view.endReason && view.endReason !== 'completed'
          ? {
              turnId: view.turnId,
              reason: view.endReason,
              error: view.error,
              message: message ?? 'The turn ended.',
            }
          : null,
    })
    void refresh(sessionId)
    if (sessionId === store.getState().currentId) store.getState().focusComposer()
  }

  function applyBatch(events: SequencedAgentEvent[]): void {
    const bySession = new Map<string, SequencedAgentEvent[]>()
    for (const e of events) {
      const list = bySession.get(e.sessionId)
      if (list) list.push(e)
      else bySession.set(e.sessionId, [e])
    }
    for (const [sessionId, list] of bySession) applySession(sessionId, list)
  }

  function applySession(sessionId: string, events: SequencedAgentEvent[]): void {
    const buffer = attaching.get(sessionId)
    if (buffer) {
      buffer.push(...events)
      return
    }
    const live = store.getState().sessions[sessionId] ?? emptyLive
    let view = live.turn
    const first = events[0]!
    if (!view || view.turnId !== first.turnId) {
      if (first.type !== 'turn_start' || first.seq !== 0) {
        // we came in during a turn: get it from its start
        attaching.set(sessionId, [...events])
        void attachLater(sessionId)
        return
      }
      view = newTurn(first.turnId, sessionId)
    }
    const turnId = view.turnId
    const wasRunning = view.running
    const wasSaved = view.userSaved
    const result = applyEvents(view, events)
    // events of a later turn in the same batch go through again after this one
    const rest = events.filter((e) => e.turnId !== turnId)
    patchSession(sessionId, { turn: result.view })
    approvalsFrom(events.filter((e) => e.turnId === turnId))
    if (result.view.running) setRunning(sessionId, result.view.turnId)
    else setRunning(sessionId, null)
    if (result.gap) {
      void attach(sessionId)
      return
    }
    if (!wasSaved && result.view.userSaved) void refresh(sessionId)
    if (events.some((e) => e.type === 'tool_result' && e.turnId === turnId)) {
      // a tool may have changed the session (its todo list)
      void client.invalidateQueries({ queryKey: keys.session(sessionId) })
    }
    const putBack = discardedText(events, turnId)
    if (putBack !== null) putBackIntoNewChat(sessionId, turnId, putBack, result.view)
    else if (wasRunning && !result.view.running) onEnded(sessionId, result.view)
    if (rest.length > 0) applySession(sessionId, rest)
  }

  /**
   * A new chat's first turn failed before any answer, so the host did not keep its session:
   * the window goes back to a new chat with the text in the box and the reason beside it.
   */
  function putBackIntoNewChat(sessionId: string, turnId: string, text: string, view: TurnView) {
    discardedTurns.add(turnId)
    setRunning(sessionId, null)
    store.setState((s) => {
      const sessions = { ...s.sessions }
      const typed = sessions[sessionId]?.draft ?? ''
      delete sessions[sessionId]
      const fresh = sessions[NEW_CHAT] ?? emptyLive
      const draft = [text, typed, fresh.draft].filter(Boolean).join('\n')
      sessions[NEW_CHAT] = {
        ...fresh,
        outbox: null,
        draft,
        sendError: view.error ?? {
          code: 'internal',
          message: endMessage(view) ?? 'The message could not be sent.',
        },
      }
      return { sessions }
    })
    if (store.getState().currentId === sessionId) store.getState().open(null)
    client.removeQueries({ queryKey: keys.session(sessionId) })
    client.removeQueries({ queryKey: keys.conversation(sessionId) })
    void client.invalidateQueries({ queryKey: keys.sessions })
  }

  async function attachLater(sessionId: string): Promise<void> {
    const buffered = attaching.get(sessionId) ?? []
    attaching.delete(sessionId)
    await attach(sessionId)
    if (buffered.length > 0) applySession(sessionId, buffered)
  }

  function approvalsFrom(events: SequencedAgentEvent[]): void {
    let approvals = store.getState().approvals
    const before = approvals
    for (const e of events) {
      if (e.type === 'permission_request') {
        approvals = [...approvals.filter((a) => a.requestId !== e.requestId), e]
      } else if (e.type === 'permission_decision') {
        approvals = approvals.filter((a) => a.requestId !== e.requestId)
      } else if (e.type === 'turn_end') {
        approvals = approvals.filter((a) => a.turnId !== e.turnId)
      }
    }
    if (approvals !== before) store.setState({ approvals })
    let asks = store.getState().elicitations
    const asked = asks
    for (const e of events) {
      if (e.type === 'elicitation_request') {
        asks = [...asks.filter((q) => q.requestId !== e.requestId), e]
      } else if (e.type === 'elicitation_resolved') {
        asks = asks.filter((q) => q.requestId !== e.requestId)
      } else if (e.type === 'turn_end') {
        asks = asks.filter((q) => q.turnId !== e.turnId)
      }
    }
    if (asks !== asked) store.setState({ elicitations: asks })
  }

  /** Which sessions run and what waits for an answer, everywhere (at start, after a reconnect). */
  async function sync(): Promise<void> {
    const r = await bridge.request('chat.status', {})
    if (!r.ok) return
    const running: Record<string, string> = {}
    for (const t of r.data.turns) running[t.sessionId] = t.turnId
    store.setState({
      running,
      approvals: r.data.pendingApprovals,
      elicitations: r.data.pendingElicitations ?? [],
    })
    const current = store.getState().currentId
    const ids = new Set([...Object.keys(running), ...(current ? [current] : [])])
    for (const [id, live] of Object.entries(store.getState().sessions)) {
      if (live.turn?.running) ids.add(id)
    }
    await Promise.all([...ids].map((id) => attach(id)))
  }

  return {
    refresh,
    attach,
    setRunning,
    applyBatch,
    sync,
    discarded: (turnId) => discardedTurns.has(turnId),
  }
}
