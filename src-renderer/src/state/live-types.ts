/** The live store's state: what each session shows while it runs, and the window's. */
import type { StoreApi } from 'zustand/vanilla'
import type { ApprovalDecision, ErrorInfo } from '../../../src-preload/contract/dto'
import type { ElicitAnswer } from '../../../src-preload/contract/elicitation'
import type { PromptRef, ResourceRef } from '../../../src-preload/contract/resources-and-prompts'
import type { AttachmentTaken } from '../../../src-preload/contract/routes'
import type {
  ElicitationRequestEvent,
  ApprovalRequestEvent,
  TurnEndReason,
} from '../../../src-preload/contract/events'
import type { ConnectionStatus } from '../platform/types'
import type { TurnView } from './turn-reducer'

/** The key of the chat that has no session yet. */
export const NEW_CHAT = ''

export interface Outbox {
  text: string
  /** the user message this one is a new version of (edit, retry) */
  replaces: string | null
  /** Regenerate: no message of its own; another answer to this user message */
  answerAgain?: string
  turnId: string | null
}

/** A file attached to the message being written: being read by the engine, or read (`taken`). */
export interface DraftFile {
  key: string
  name: string
  bytes: number
  /** set once the engine has read it */
  taken: AttachmentTaken | null
}

export interface TurnEnd {
  turnId: string
  reason: TurnEndReason
  error: ErrorInfo | null
  message: string
}

/** A notice of an ended turn, kept in its place once the stored rows take over. */
export interface KeptNotice {
  key: string
  level: 'info' | 'warning'
  message: string
  /** how many of the turn's answers come before it */
  after: number
}

export interface SessionLive {
  turn: TurnView | null
  /** the message on its way, shown at once, until the stored history has it */
  outbox: Outbox | null
  /** the composer's text */
  draft: string
  /** the files attached to it, kept with the text when the user opens another chat */
  files: readonly DraftFile[]
  /** why the last message could not be sent (shown beside the composer) */
  sendError: ErrorInfo | null
  /** why the last turn ended, when it did not simply complete (shown once) */
  ended: TurnEnd | null
  /** new chat only: the model picked before the first message */
  model: string | null
  /** new chat only: the assistant picked before the first message (null: the default one) */
  assistant: string | null
  /** turnId → notices its live view showed (they are not stored) */
  notices: Readonly<Record<string, KeptNotice[]>>
}

export interface LiveState {
  currentId: string | null
  sessions: Record<string, SessionLive>
  /** sessionId → the running turn's id, in every session */
  running: Record<string, string>
  /** approvals waiting for an answer, in every session, oldest first */
  approvals: ApprovalRequestEvent[]
  /** servers' questions (elicitations) waiting for an answer, in every session, oldest first */
  elicitations: ElicitationRequestEvent[]
  connection: ConnectionStatus
  /** bumped when the composer should take the focus */
  focusTick: number
}

export interface LiveActions {
  open(id: string | null): void
  /**
   * `attachments`: resources picked with `@`, read and stored with the message; `files`: the
   * tokens of files the engine has read (a message of files alone may have no text)
   */
  send(
    text: string,
    opts?: { replaces?: string; attachments?: ResourceRef[]; prompt?: PromptRef; files?: string[] },
  ): Promise<boolean>
  /** another answer to the user message `messageId`: a new branch after it */
  regenerate(messageId: string): Promise<boolean>
  stop(): Promise<void>
  respond(requestId: string, decision: ApprovalDecision, reason?: string): Promise<void>
  /** answers a server's question; resolves with why it was refused, or null */
  answerElicitation(requestId: string, answer: ElicitAnswer): Promise<string | null>
  setDraft(text: string): void
  /** changes the files attached in chat `chat` (NEW_CHAT for the new chat) */
  setFiles(chat: string, update: (files: readonly DraftFile[]) => readonly DraftFile[]): void
  setModel(model: string): Promise<string | null>
  /** a new chat starts with it; a session switches from its next turn (resolves with why not) */
  setAssistant(assistantId: string): Promise<string | null>
  focusComposer(): void
}

export type LiveStore = StoreApi<LiveState & LiveActions>

export const emptyLive: SessionLive = {
  turn: null,
  outbox: null,
  draft: '',
  files: [],
  sendError: null,
  ended: null,
  model: null,
  assistant: null,
  notices: {},
}
