/**
 * Live turns, per session: every session's running turn is kept, on screen or not, so
 * switching back shows it as it is; which sessions run; the approvals waiting in any
 * session; what is being sent. Fed by contract events, applied once per animation frame.
 * Stored data (messages, session records) is in the query cache; this store refreshes it
 * when a turn saves its user message and when a turn ends.
 */
import type { QueryClient } from '@tanstack/react-query'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { ApprovalDecision, ErrorInfo } from '../../../src-preload/contract/dto'
import type { PermissionRequestEvent, TurnEndReason } from '../../../src-preload/contract/events'
import type { Platform } from '../platform/types'
import type { ConnectionStatus } from '../platform/types'
import { FrameBatcher, type FrameScheduler } from './frame-batcher'
import { fetchTail, keys, type Conversation } from './queries'
import { applyEvents, endMessage, newTurn, type TurnView } from './turn-reducer'

/** The key of the chat that has no session yet. */
export const NEW_CHAT = ''

export interface Outbox {
  text: string
  /** the user message this one replaces (regenerate, edit, retry) */
  replaces: string | null
  turnId: string | null
}

export interface TurnEnd {
  turnId: string
  reason: TurnEndReason
  error: ErrorInfo | null
  message: string
}

export interface SessionLive {
  turn: TurnView | null
  /** the message on its way, shown at once, until the stored history has it */
  outbox: Outbox | null
  /** the composer's text */
  draft: string
  /** why the last message could not be sent (shown beside the composer) */
  sendError: string | null
  /** why the last turn ended, when it did not simply complete (shown once) */
  ended: TurnEnd | null
  /** new chat only: the model picked before the first message */
  model: string | null
}

export interface LiveState {
  currentId: string | null
  sessions: Record<string, SessionLive>
  /** sessionId → the running turn's id, in every session */
  running: Record<string, string>
  /** approvals waiting for an answer, in every session, oldest first */
  approvals: PermissionRequestEvent[]
  connection: ConnectionStatus
  /** bumped when the composer should take the focus */
  focusTick: number
}

export interface LiveActions {
  open(id: string | null): void
  send(text: string, opts?: { replaces?: string }): Promise<boolean>
  stop(): Promise<void>
  respond(requestId: string, decision: ApprovalDecision, reason?: string): Promise<void>
  setDraft(text: string): void
  setModel(model: string): Promise<string | null>
  focusComposer(): void
}

export type LiveStore = StoreApi<LiveState & LiveActions>

export const emptyLive: SessionLive = {
  turn: null,
  outbox: null,
  draft: '',
  sendError: null,
  ended: null,
  model: null,
}

export interface LiveStoreOptions {
  /** the session on screen changed (the address follows it) */
  onSession?: (id: string | null) => void
  scheduler?: FrameScheduler
}

export function createLiveStore(
  platform: Platform,
  client: QueryClient,
  opts: LiveStoreOptions = {},
): LiveStore {
  const { bridge, connection } = platform
  const attaching = new Map<string, SequencedAgentEvent[]>()

  const store = createStore<LiveState & LiveActions>()((set, get) => {
    const key = (): string => get().currentId ?? NEW_CHAT
    const patch = (sessionId: string, p: Partial<SessionLive>): void =>
      set((s) => ({
        sessions: {
          ...s.sessions,
          [sessionId]: { ...(s.sessions[sessionId] ?? emptyLive), ...p },
        },
      }))

    return {
      currentId: null,
      sessions: {},
      running: {},
      approvals: [],
      connection: connection.status(),
      focusTick: 0,

      open(id) {
        if (get().currentId === id) return
        set((s) => ({ currentId: id, focusTick: s.focusTick + 1 }))
        opts.onSession?.(id)
        if (id) void attach(id)
      },

      async send(text, sendOpts = {}) {
        const sessionId = get().currentId
        const k = key()
        const live = get().sessions[k] ?? emptyLive
        if (!text.trim() || live.outbox || (sessionId && get().running[sessionId])) return false
        const replaces = sendOpts.replaces ?? null
        patch(k, {
          outbox: { text, replaces, turnId: null },
          draft: replaces ? live.draft : '',
          sendError: null,
          ended: null,
        })
        const r = await bridge.request('chat.send', {
          text,
          ...(sessionId ? { sessionId } : {}),
          ...(!sessionId && live.model ? { model: live.model } : {}),
          ...(replaces ? { replaces } : {}),
        })
        if (!r.ok) {
          // never lost: the text goes back into the box, with the reason beside it
          const now = get().sessions[k] ?? emptyLive
          patch(k, {
            outbox: null,
            draft: replaces ? now.draft : now.draft ? `${text}\n${now.draft}` : text,
            sendError: r.error.message,
          })
          return false
        }
        const { sessionId: sid, turnId } = r.data
        if (k === NEW_CHAT) {
          const fresh = get().sessions[NEW_CHAT] ?? emptyLive
          set((s) => {
            const sessions = { ...s.sessions }
            delete sessions[NEW_CHAT]
            sessions[sid] = { ...fresh, ...sessions[sid], outbox: fresh.outbox, model: null }
            return { sessions, currentId: s.currentId === null ? sid : s.currentId }
          })
          if (get().currentId === sid) opts.onSession?.(sid)
        }
        const after = get().sessions[sid] ?? emptyLive
        patch(sid, {
          outbox: after.outbox ? { ...after.outbox, turnId } : null,
          turn: after.turn?.turnId === turnId ? after.turn : newTurn(turnId, sid),
        })
        setRunning(sid, (get().sessions[sid]?.turn?.running ?? true) ? turnId : null)
        if (after.turn?.turnId === turnId && after.turn.userSaved) void refresh(sid)
        return true
      },

      async stop() {
        const id = get().currentId
        const turnId = id ? get().running[id] : undefined
        if (!turnId) return
        await bridge.request('chat.stop', { turnId })
      },

      async respond(requestId, decision, reason) {
        set((s) => ({
          approvals: s.approvals.filter((a) => a.requestId !== requestId),
          focusTick: s.focusTick + 1,
        }))
        await bridge.request('approvals.respond', {
          requestId,
          decision,
          ...(reason ? { reason } : {}),
        })
      },

      setDraft(text) {
        patch(key(), { draft: text, sendError: null })
      },

      async setModel(model) {
        const id = get().currentId
        if (!id) {
          patch(NEW_CHAT, { model })
          return null
        }
        const r = await bridge.request('sessions.setModel', { id, model })
        if (!r.ok) return r.error.message
        client.setQueryData(keys.session(id), r.data)
        return null
      },

      focusComposer() {
        set((s) => ({ focusTick: s.focusTick + 1 }))
      },
    }
  })

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
    if (live.turn && !live.turn.running && stored.has(live.turn.turnId)) p.turn = null
    if (Object.keys(p).length > 0) patchSession(sessionId, p)
  }

  async function attach(sessionId: string): Promise<void> {
    if (attaching.has(sessionId)) return
    attaching.set(sessionId, [])
    const r = await bridge.request('chat.attach', { sessionId })
    const buffered = attaching.get(sessionId) ?? []
    attaching.delete(sessionId)
    if (!r.ok) return
    const { turn, pendingApprovals } = r.data
    store.setState((s) => ({
      approvals: [...s.approvals.filter((a) => a.sessionId !== sessionId), ...pendingApprovals],
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
    if (wasRunning && !result.view.running) onEnded(sessionId, result.view)
    if (rest.length > 0) applySession(sessionId, rest)
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
  }

  /** Which sessions run and what waits for an answer, everywhere (at start, after a reconnect). */
  async function sync(): Promise<void> {
    const r = await bridge.request('chat.status', {})
    if (!r.ok) return
    const running: Record<string, string> = {}
    for (const t of r.data.turns) running[t.sessionId] = t.turnId
    store.setState({ running, approvals: r.data.pendingApprovals })
    const current = store.getState().currentId
    const ids = new Set([...Object.keys(running), ...(current ? [current] : [])])
    for (const [id, live] of Object.entries(store.getState().sessions)) {
      if (live.turn?.running) ids.add(id)
    }
    await Promise.all([...ids].map((id) => attach(id)))
  }

  const batcher = new FrameBatcher<SequencedAgentEvent>(applyBatch, opts.scheduler)
  bridge.on('agent', (e) => batcher.push(e))
  bridge.on('sessions.changed', (p) => {
    if (p.sessionId) void client.invalidateQueries({ queryKey: keys.session(p.sessionId) })
    void client.invalidateQueries({ queryKey: keys.sessions })
  })
  connection.onStatus((status) => store.setState({ connection: status }))
  connection.onReconnect(() => {
    void sync()
    const id = store.getState().currentId
    if (id) void refresh(id)
  })
  void sync()
  return store
}
