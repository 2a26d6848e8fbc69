/**
 * Live turns, per session: every session's running turn is kept, on screen or not, so
 * switching back shows it as it is; which sessions run; the approvals waiting in any
 * session; what is being sent. Fed by contract events, applied once per animation frame.
 * Stored data (messages, session records) is in the query cache; this store refreshes it
 * when a turn saves its user message and when a turn ends.
 */
import type { QueryClient } from '@tanstack/react-query'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { Platform } from '../platform/types'
import { FrameBatcher, type FrameScheduler } from './frame-batcher'
import { createLiveSync, type LiveSync } from './live-sync'
import {
  emptyLive,
  NEW_CHAT,
  type LiveActions,
  type LiveState,
  type DraftFile,
  type LiveStore,
  type SessionLive,
} from './live-types'
import { keys } from './queries'
import { newTurn } from './turn-reducer'

export { emptyLive, NEW_CHAT } from './live-types'
export type {
  DraftFile,
  LiveActions,
  LiveState,
  LiveStore,
  Outbox,
  SessionLive,
  TurnEnd,
} from './live-types'

export interface LiveStoreOptions {
  /** the session on screen changed (the address follows it) */
  onSession?: (id: string | null) => void
  scheduler?: FrameScheduler
}

type State = LiveState & LiveActions

/** What the actions share: the store, the host, and the sync (made after the store). */
interface Ctx {
  get: () => State
  set: StoreApi<State>['setState']
  bridge: CairnBridge
  client: QueryClient
  opts: LiveStoreOptions
  syncer: () => LiveSync
}

const keyOf = (ctx: Ctx): string => ctx.get().currentId ?? NEW_CHAT

function patch(ctx: Ctx, sessionId: string, p: Partial<SessionLive>): void {
  ctx.set((s) => ({
    sessions: { ...s.sessions, [sessionId]: { ...(s.sessions[sessionId] ?? emptyLive), ...p } },
  }))
}

type SendOptions = Parameters<LiveActions['send']>[1]

/**
 * Sends a message: shown at once (the outbox), then the host's turn. A message the host
 * refuses goes back into the box with the reason; a new chat's first becomes its session.
 */
async function send(ctx: Ctx, text: string, sendOpts: SendOptions = {}): Promise<boolean> {
  const sessionId = ctx.get().currentId
  const k = keyOf(ctx)
  const live = ctx.get().sessions[k] ?? emptyLive
  const files = sendOpts.files ?? []
  if (!text.trim() && files.length === 0) return false
  if (live.outbox || (sessionId && ctx.get().running[sessionId])) return false
  const replaces = sendOpts.replaces ?? null
  // the files sent leave the box with the text (and come back with it when refused)
  const sent = (f: DraftFile): boolean => !!f.taken && files.includes(f.taken.token)
  patch(ctx, k, {
    outbox: { text, replaces, turnId: null },
    draft: replaces ? live.draft : '',
    files: live.files.filter((f) => !sent(f)),
    sendError: null,
    ended: null,
  })
  const r = await ctx.bridge.request('chat.send', {
    text,
    ...(sessionId ? { sessionId } : {}),
    ...(!sessionId && live.model ? { model: live.model } : {}),
    ...(!sessionId && live.assistant ? { assistantId: live.assistant } : {}),
    ...(replaces ? { replaces } : {}),
    ...(sendOpts.attachments?.length ? { attachments: sendOpts.attachments } : {}),
    ...(sendOpts.prompt ? { prompt: sendOpts.prompt } : {}),
    ...(files.length > 0 ? { files } : {}),
  })
  if (!r.ok) {
    // never lost: the text goes back into the box, with the reason beside it
    const now = ctx.get().sessions[k] ?? emptyLive
    patch(ctx, k, {
      outbox: null,
      draft: replaces ? now.draft : now.draft ? `${text}\n${now.draft}` : text,
      files: [...live.files.filter(sent), ...now.files],
      sendError: r.error,
    })
    return false
  }
  const { sessionId: sid, turnId } = r.data
  // the turn already failed and its new session is gone: the text is back in the box
  if (ctx.syncer().discarded(turnId)) return false
  if (k === NEW_CHAT) adoptNewChat(ctx, sid)
  turnStarted(ctx, sid, turnId)
  return true
}

/**
 * Regenerate: another answer to a user message of the chat on screen, on a new branch
 * after it (what followed it stays, on its own branch). Shown at once: what it replaces
 * is hidden while the answer comes.
 */
async function regenerate(ctx: Ctx, messageId: string): Promise<boolean> {
  const sessionId = ctx.get().currentId
  if (!sessionId) return false
  const live = ctx.get().sessions[sessionId] ?? emptyLive
  if (live.outbox || ctx.get().running[sessionId]) return false
  patch(ctx, sessionId, {
    outbox: { text: '', replaces: null, answerAgain: messageId, turnId: null },
    sendError: null,
    ended: null,
  })
  const r = await ctx.bridge.request('chat.regenerate', { sessionId, messageId })
  if (!r.ok) {
    patch(ctx, sessionId, { outbox: null, sendError: r.error })
    return false
  }
  turnStarted(ctx, r.data.sessionId, r.data.turnId)
  return true
}

/** A new chat's first message made its session: what the new chat held moves there. */
function adoptNewChat(ctx: Ctx, sid: string): void {
  ctx.set((s) => {
    const fresh = s.sessions[NEW_CHAT] ?? emptyLive
    const sessions = { ...s.sessions }
    delete sessions[NEW_CHAT]
    // the session's events may have come first (its turn); what the user sees in the
    // composer (typed while this was being sent) comes from the new chat
    sessions[sid] = {
      ...fresh,
      ...sessions[sid],
      outbox: fresh.outbox,
      draft: fresh.draft,
      files: fresh.files,
      sendError: fresh.sendError,
      model: null,
      assistant: null,
    }
    return { sessions, currentId: s.currentId === null ? sid : s.currentId }
  })
  if (ctx.get().currentId === sid) ctx.opts.onSession?.(sid)
}

/** The host took the message: its turn runs (its events may have come already). */
function turnStarted(ctx: Ctx, sid: string, turnId: string): void {
  const syncer = ctx.syncer()
  const after = ctx.get().sessions[sid] ?? emptyLive
  patch(ctx, sid, {
    outbox: after.outbox ? { ...after.outbox, turnId } : null,
    turn: after.turn?.turnId === turnId ? after.turn : newTurn(turnId, sid),
  })
  syncer.setRunning(sid, (ctx.get().sessions[sid]?.turn?.running ?? true) ? turnId : null)
  if (after.turn?.turnId === turnId && after.turn.userSaved) void syncer.refresh(sid)
}

/** A session's model or assistant: a new chat keeps it until its first message. */
async function setSessionChoice(
  ctx: Ctx,
  choice: { model: string } | { assistant: string },
): Promise<string | null> {
  const id = ctx.get().currentId
  if (!id) {
    patch(ctx, NEW_CHAT, choice)
    return null
  }
  const r =
    'model' in choice
      ? await ctx.bridge.request('sessions.setModel', { id, model: choice.model })
      : await ctx.bridge.request('sessions.setAssistant', { id, assistantId: choice.assistant })
  if (!r.ok) return r.error.message
  ctx.client.setQueryData(keys.session(id), r.data)
  return null
}

function actions(ctx: Ctx): LiveActions {
  const { get, set, bridge } = ctx
  return {
    open(id) {
      if (get().currentId === id) return
      set((s) => ({ currentId: id, focusTick: s.focusTick + 1 }))
      ctx.opts.onSession?.(id)
      if (id) void ctx.syncer().attach(id)
    },
    send: (text, sendOpts) => send(ctx, text, sendOpts),
    regenerate: (messageId) => regenerate(ctx, messageId),
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
    async answerElicitation(requestId, answer) {
      const r = await bridge.request('elicitations.respond', {
        requestId,
        action: answer.action,
        ...(answer.content ? { content: answer.content } : {}),
      })
      if (r.ok && r.data.error) return r.data.error
      // answered here, elsewhere, or no longer asked: the form goes either way
      set((s) => ({
        elicitations: s.elicitations.filter((q) => q.requestId !== requestId),
        focusTick: s.focusTick + 1,
      }))
      return r.ok ? null : r.error.message
    },
    setDraft(text) {
      patch(ctx, keyOf(ctx), { draft: text, sendError: null })
    },
    setFiles(chat, update) {
      set((s) => {
        const live = s.sessions[chat] ?? emptyLive
        return { sessions: { ...s.sessions, [chat]: { ...live, files: update(live.files) } } }
      })
    },
    setModel: (model) => setSessionChoice(ctx, { model }),
    setAssistant: (assistantId) => setSessionChoice(ctx, { assistant: assistantId }),
    focusComposer() {
      set((s) => ({ focusTick: s.focusTick + 1 }))
    },
  }
}

/** The host's events into the store: agent events once per frame, the rest as they come. */
function listen(
  store: LiveStore,
  platform: Platform,
  client: QueryClient,
  syncer: LiveSync,
  scheduler: FrameScheduler | undefined,
): void {
  const { bridge, connection } = platform
  const batcher = new FrameBatcher<SequencedAgentEvent>(syncer.applyBatch, scheduler)
  bridge.on('agent', (e) => batcher.push(e))
  // a call from a tool's view waits for approval like a turn's (its own event: no turn runs)
  bridge.on('mcp.viewApproval', (p) => {
    store.setState((s) => ({
      approvals:
        'request' in p
          ? [...s.approvals.filter((a) => a.requestId !== p.request.requestId), p.request]
          : s.approvals.filter((a) => a.requestId !== p.resolved),
    }))
  })
  bridge.on('sessions.changed', (p) => {
    if (p.sessionId) void client.invalidateQueries({ queryKey: keys.session(p.sessionId) })
    void client.invalidateQueries({ queryKey: keys.sessions })
  })
  // a voice final goes where it belongs whatever the window shows (the composer may be
  // gone, behind the settings): the first of a new chat opens that chat; one left to edit
  // is added to its chat's box
  bridge.on('voice', (e) => {
    if (e.type !== 'final') return
    const s = store.getState()
    if (e.disposition === 'sent') {
      if (s.currentId === null) s.open(e.sessionId)
    } else if (e.disposition === 'composer') {
      const k = e.sessionId ?? NEW_CHAT
      store.setState((st) => {
        const chat = st.sessions[k] ?? emptyLive
        const draft = chat.draft ? `${chat.draft} ${e.text}` : e.text
        return { sessions: { ...st.sessions, [k]: { ...chat, draft } } }
      })
    }
  })
  connection.onStatus((status) => store.setState({ connection: status }))
  connection.onReconnect(() => {
    void syncer.sync()
    const id = store.getState().currentId
    if (id) void syncer.refresh(id)
  })
}

export function createLiveStore(
  platform: Platform,
  client: QueryClient,
  opts: LiveStoreOptions = {},
): LiveStore {
  let syncer: LiveSync | null = null
  const store = createStore<State>()((set, get) => ({
    currentId: null,
    sessions: {},
    running: {},
    approvals: [],
    elicitations: [],
    connection: platform.connection.status(),
    focusTick: 0,
    // (the actions use the sync only once they are called, after it is made below)
    ...actions({ get, set, bridge: platform.bridge, client, opts, syncer: () => syncer! }),
  }))
  syncer = createLiveSync(store, platform, client)
  listen(store, platform, client, syncer, opts.scheduler)
  void syncer.sync()
  return store
}
