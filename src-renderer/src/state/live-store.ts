/**
 * Live turns, per session: every session's running turn is kept, on screen or not, so
 * switching back shows it as it is; which sessions run; the approvals waiting in any
 * session; what is being sent. Fed by contract events, applied once per animation frame.
 * Stored data (messages, session records) is in the query cache; this store refreshes it
 * when a turn saves its user message and when a turn ends.
 */
import type { QueryClient } from '@tanstack/react-query'
import { createStore } from 'zustand/vanilla'
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { Platform } from '../platform/types'
import { FrameBatcher, type FrameScheduler } from './frame-batcher'
import { createLiveSync, type LiveSync } from './live-sync'
import {
  emptyLive,
  NEW_CHAT,
  type LiveActions,
  type LiveState,
  type LiveStore,
  type SessionLive,
} from './live-types'
import { keys } from './queries'
import { newTurn } from './turn-reducer'

export { emptyLive, NEW_CHAT } from './live-types'
export type { LiveActions, LiveState, LiveStore, Outbox, SessionLive, TurnEnd } from './live-types'

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
      elicitations: [],
      connection: connection.status(),
      focusTick: 0,

      open(id) {
        if (get().currentId === id) return
        set((s) => ({ currentId: id, focusTick: s.focusTick + 1 }))
        opts.onSession?.(id)
        if (id) void syncer.attach(id)
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
          ...(!sessionId && live.assistant ? { assistantId: live.assistant } : {}),
          ...(replaces ? { replaces } : {}),
          ...(sendOpts.attachments?.length ? { attachments: sendOpts.attachments } : {}),
          ...(sendOpts.prompt ? { prompt: sendOpts.prompt } : {}),
        })
        if (!r.ok) {
          // never lost: the text goes back into the box, with the reason beside it
          const now = get().sessions[k] ?? emptyLive
          patch(k, {
            outbox: null,
            draft: replaces ? now.draft : now.draft ? `${text}\n${now.draft}` : text,
            sendError: r.error,
          })
          return false
        }
        const { sessionId: sid, turnId } = r.data
        // the turn already failed and its new session is gone: the text is back in the box
        if (syncer.discarded(turnId)) return false
        if (k === NEW_CHAT) {
          set((s) => {
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
              sendError: fresh.sendError,
              model: null,
              assistant: null,
            }
            return { sessions, currentId: s.currentId === null ? sid : s.currentId }
          })
          if (get().currentId === sid) opts.onSession?.(sid)
        }
        const after = get().sessions[sid] ?? emptyLive
        patch(sid, {
          outbox: after.outbox ? { ...after.outbox, turnId } : null,
          turn: after.turn?.turnId === turnId ? after.turn : newTurn(turnId, sid),
        })
        syncer.setRunning(sid, (get().sessions[sid]?.turn?.running ?? true) ? turnId : null)
        if (after.turn?.turnId === turnId && after.turn.userSaved) void syncer.refresh(sid)
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

      async setAssistant(assistantId) {
        const id = get().currentId
        if (!id) {
          patch(NEW_CHAT, { assistant: assistantId })
          return null
        }
        const r = await bridge.request('sessions.setAssistant', { id, assistantId })
        if (!r.ok) return r.error.message
        client.setQueryData(keys.session(id), r.data)
        return null
      },

      focusComposer() {
        set((s) => ({ focusTick: s.focusTick + 1 }))
      },
    }
  })

  // (the actions above use it only once they are called, after this line)
  const syncer: LiveSync = createLiveSync(store, platform, client)
  const batcher = new FrameBatcher<SequencedAgentEvent>(syncer.applyBatch, opts.scheduler)
  bridge.on('agent', (e) => batcher.push(e))
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
  void syncer.sync()
  return store
}
