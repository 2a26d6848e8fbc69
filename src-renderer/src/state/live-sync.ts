/**
 * Keeps the live store in step with the host, in three steps of its own:
 * - apply: agent events, per session, a batch per frame (`applyBatch`), then what follows
 *   from them (approvals, which sessions run, the stored messages to refresh, the end);
 * - attach: to a turn already running (from its first event), buffering what comes meanwhile;
 * - refresh: the stored messages, when a turn saved its user message or ended;
 * and re-syncs after a reconnection (`sync`).
 */
import type { QueryClient } from '@tanstack/react-query'
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { RouteOutputs } from '../../../src-preload/contract/routes'
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

/** What the steps share. */
type ChatAttachResult = RouteOutputs['chat.attach']

interface Sync {
  store: LiveStore
  bridge: CairnBridge
  client: QueryClient
  /** sessions being attached: the events that came meanwhile */
  attaching: Map<string, SequencedAgentEvent[]>
  discardedTurns: Set<string>
  /** per session, the number of the latest refresh (a later one wins over a late answer) */
  refreshes: Map<string, number>
}

export function createLiveSync(
  store: LiveStore,
  platform: Platform,
  client: QueryClient,
): LiveSync {
  const sync: Sync = {
    store,
    bridge: platform.bridge,
    client,
    attaching: new Map(),
    discardedTurns: new Set(),
    refreshes: new Map(),
  }
  return {
    refresh: (id) => refresh(sync, id),
    attach: (id) => attach(sync, id),
    setRunning: (id, turnId) => setRunning(sync, id, turnId),
    applyBatch: (events) => applyBatch(sync, events),
    sync: () => syncAll(sync),
    discarded: (turnId) => sync.discardedTurns.has(turnId),
  }
}

function patchSession(sync: Sync, sessionId: string, p: Partial<SessionLive>): void {
  sync.store.setState((s) => ({
    sessions: { ...s.sessions, [sessionId]: { ...(s.sessions[sessionId] ?? emptyLive), ...p } },
  }))
}

function setRunning(sync: Sync, sessionId: string, turnId: string | null): void {
  sync.store.setState((s) => {
    if ((s.running[sessionId] ?? null) === turnId) return {}
    const running = { ...s.running }
    if (turnId) running[sessionId] = turnId
    else delete running[sessionId]
    return { running }
  })
}

// ---- refresh ----

/** Loads the newest stored messages; drops the outbox and an ended turn they now hold. */
async function refresh(sync: Sync, sessionId: string): Promise<void> {
  const n = (sync.refreshes.get(sessionId) ?? 0) + 1
  sync.refreshes.set(sessionId, n)
  let data: Conversation
  try {
    data = await fetchTail(sync.bridge, sync.client, sessionId)
  } catch {
    return
  }
  if (sync.refreshes.get(sessionId) !== n) return
  sync.client.setQueryData(keys.conversation(sessionId), data)
  const live = sync.store.getState().sessions[sessionId]
  if (!live) return
  const p = storedTakesOver(live, new Set(data.messages.map((m) => m.turnId)))
  if (Object.keys(p).length > 0) patchSession(sync, sessionId, p)
}

/** What of a session's live state the stored messages (of these turns) now show. */
function storedTakesOver(live: SessionLive, stored: Set<string | null>): Partial<SessionLive> {
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
  return p
}

// ---- attach ----

/** Gets a session's running turn from the host (its events so far), and what waits on it. */
async function attach(sync: Sync, sessionId: string): Promise<void> {
  if (sync.attaching.has(sessionId)) return
  sync.attaching.set(sessionId, [])
  const r = await sync.bridge.request('chat.attach', { sessionId })
  const buffered = sync.attaching.get(sessionId) ?? []
  sync.attaching.delete(sessionId)
  if (!r.ok) return
  const { turn } = r.data
  adoptWaiting(sync, sessionId, r.data)
  if (!turn) noTurnRunning(sync, sessionId)
  else adoptTurn(sync, sessionId, turn, buffered)
  // events of a turn that began after the host answered
  const later = buffered.filter((e) => e.turnId !== turn?.turnId)
  if (later.length > 0) applySession(sync, sessionId, later)
}

/** the approvals and questions the host says wait in the session */
function adoptWaiting(sync: Sync, sessionId: string, data: ChatAttachResult): void {
  const { pendingApprovals, pendingElicitations = [] } = data
  sync.store.setState((s) => ({
    approvals: [...s.approvals.filter((a) => a.sessionId !== sessionId), ...pendingApprovals],
    elicitations: [
      ...s.elicitations.filter((q) => q.sessionId !== sessionId),
      ...pendingElicitations,
    ],
  }))
}

function noTurnRunning(sync: Sync, sessionId: string): void {
  const live = sync.store.getState().sessions[sessionId] ?? emptyLive
  if (live.turn?.running) {
    // it ended while we were away
    patchSession(sync, sessionId, { turn: { ...live.turn, running: false } })
    setRunning(sync, sessionId, null)
  }
  void refresh(sync, sessionId)
}

function adoptTurn(
  sync: Sync,
  sessionId: string,
  turn: NonNullable<ChatAttachResult['turn']>,
  buffered: SequencedAgentEvent[],
): void {
  const live = sync.store.getState().sessions[sessionId] ?? emptyLive
  let view = live.turn?.turnId === turn.turnId ? live.turn : newTurn(turn.turnId, sessionId)
  view = applyEvents(view, turn.events).view
  view = applyEvents(view, buffered).view
  patchSession(sync, sessionId, { turn: view })
  setRunning(sync, sessionId, view.running ? turn.turnId : null)
  if (view.userSaved) void refresh(sync, sessionId)
  if (!view.running) onEnded(sync, sessionId, view)
}

async function attachLater(sync: Sync, sessionId: string): Promise<void> {
  const buffered = sync.attaching.get(sessionId) ?? []
  sync.attaching.delete(sessionId)
  await attach(sync, sessionId)
  if (buffered.length > 0) applySession(sync, sessionId, buffered)
}

/** Which sessions run and what waits for an answer, everywhere (at start, after a reconnect). */
async function syncAll(sync: Sync): Promise<void> {
  const r = await sync.bridge.request('chat.status', {})
  if (!r.ok) return
  const running: Record<string, string> = {}
  for (const t of r.data.turns) running[t.sessionId] = t.turnId
  sync.store.setState({
    running,
    approvals: r.data.pendingApprovals,
    elicitations: r.data.pendingElicitations ?? [],
  })
  const current = sync.store.getState().currentId
  const ids = new Set([...Object.keys(running), ...(current ? [current] : [])])
  for (const [id, live] of Object.entries(sync.store.getState().sessions)) {
    if (live.turn?.running) ids.add(id)
  }
  await Promise.all([...ids].map((id) => attach(sync, id)))
}

// ---- apply ----

function applyBatch(sync: Sync, events: SequencedAgentEvent[]): void {
  const bySession = new Map<string, SequencedAgentEvent[]>()
  for (const e of events) {
    const list = bySession.get(e.sessionId)
    if (list) list.push(e)
    else bySession.set(e.sessionId, [e])
  }
  for (const [sessionId, list] of bySession) applySession(sync, sessionId, list)
}

/** A session's events of this frame: to its turn, or buffered while it is being attached. */
function applySession(sync: Sync, sessionId: string, events: SequencedAgentEvent[]): void {
  const buffer = sync.attaching.get(sessionId)
  if (buffer) {
    buffer.push(...events)
    return
  }
  const live = sync.store.getState().sessions[sessionId] ?? emptyLive
  let view = live.turn
  const first = events[0]!
  if (!view || view.turnId !== first.turnId) {
    if (first.type !== 'turn_start' || first.seq !== 0) {
      // we came in during a turn: get it from its start
      sync.attaching.set(sessionId, [...events])
      void attachLater(sync, sessionId)
      return
    }
    view = newTurn(first.turnId, sessionId)
  }
  const result = applyEvents(view, events)
  patchSession(sync, sessionId, { turn: result.view })
  const mine = events.filter((e) => e.turnId === view.turnId)
  waitingFrom(sync, mine)
  setRunning(sync, sessionId, result.view.running ? result.view.turnId : null)
  if (result.gap) {
    // an event is missing: the turn is attached again, from its start
    void attach(sync, sessionId)
    return
  }
  afterEvents(sync, sessionId, view, result.view, mine)
  // events of a later turn in the same batch go through again after this one
  const rest = events.filter((e) => e.turnId !== view.turnId)
  if (rest.length > 0) applySession(sync, sessionId, rest)
}

/** What a turn's events mean beyond its view: stored messages to refresh, the end. */
function afterEvents(
  sync: Sync,
  sessionId: string,
  before: TurnView,
  view: TurnView,
  events: SequencedAgentEvent[],
): void {
  if (!before.userSaved && view.userSaved) void refresh(sync, sessionId)
  if (events.some((e) => e.type === 'tool_result')) {
    // a tool may have changed the session (its todo list)
    void sync.client.invalidateQueries({ queryKey: keys.session(sessionId) })
  }
  const putBack = discardedText(events)
  if (putBack !== null) putBackIntoNewChat(sync, sessionId, view, putBack)
  else if (before.running && !view.running) onEnded(sync, sessionId, view)
}

function discardedText(events: SequencedAgentEvent[]): string | null {
  for (const e of events) {
    if (e.type === 'turn_end' && e.discardedSession) return e.discardedSession.text
  }
  return null
}

function onEnded(sync: Sync, sessionId: string, view: TurnView): void {
  const message = endMessage(view)
  patchSession(sync, sessionId, {
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
  void refresh(sync, sessionId)
  const state = sync.store.getState()
  if (sessionId === state.currentId) state.focusComposer()
}

/**
 * A new chat's first turn failed before any answer, so the host did not keep its session:
 * the window goes back to a new chat with the text in the box and the reason beside it.
 */
function putBackIntoNewChat(sync: Sync, sessionId: string, view: TurnView, text: string): void {
  sync.discardedTurns.add(view.turnId)
  setRunning(sync, sessionId, null)
  sync.store.setState((s) => {
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
  if (sync.store.getState().currentId === sessionId) sync.store.getState().open(null)
  sync.client.removeQueries({ queryKey: keys.session(sessionId) })
  sync.client.removeQueries({ queryKey: keys.conversation(sessionId) })
  void sync.client.invalidateQueries({ queryKey: keys.sessions })
}

/** The approvals and servers' questions that wait, after these events. */
function waitingFrom(sync: Sync, events: SequencedAgentEvent[]): void {
  const s = sync.store.getState()
  const approvals = events.reduce((list, e) => {
    if (e.type === 'permission_request') {
      return [...list.filter((a) => a.requestId !== e.requestId), e]
    }
    if (e.type === 'permission_decision') return list.filter((a) => a.requestId !== e.requestId)
    if (e.type === 'turn_end') return list.filter((a) => a.turnId !== e.turnId)
    return list
  }, s.approvals)
  const elicitations = events.reduce((list, e) => {
    if (e.type === 'elicitation_request') {
      return [...list.filter((q) => q.requestId !== e.requestId), e]
    }
    if (e.type === 'elicitation_resolved') return list.filter((q) => q.requestId !== e.requestId)
    if (e.type === 'turn_end') return list.filter((q) => q.turnId !== e.turnId)
    return list
  }, s.elicitations)
  if (approvals !== s.approvals) sync.store.setState({ approvals })
  if (elicitations !== s.elicitations) sync.store.setState({ elicitations })
}
