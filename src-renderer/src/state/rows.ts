/** The rows the conversation shows (see `conversation.ts`), and the exchanges they come from. */
import type { AttachmentPart, StoredMessage } from '../../../src-preload/contract/dto'
import type { TurnEnd } from './live-types'
import type { AnswerStatus, ToolView, TurnUsage } from './turn-reducer'

export interface AnswerView {
  text: string
  reasoning: string
  reasoningMs: number | null
  reasoningStartedAt: number | null
  status: AnswerStatus
  tools: ToolView[]
}

/** The versions at a point of the conversation: edits of a message, answers to one. */
export interface Versions {
  /** the version shown, 0-based, and how many there are */
  index: number
  count: number
  /** every version's message number (seq), oldest first */
  seqs: readonly number[]
}

/** Under the last answer of an exchange. */
export interface ExchangeFooter {
  usage: TurnUsage | null
  /** the whole answer of the exchange as Markdown, for Copy */
  markdown: string
  /** nothing runs: the answer can be regenerated (another answer, a new branch) */
  canRegenerate: boolean
  /** the exchange is the last of the branch: an answer cut short can be continued */
  continuable?: boolean
  /** the user message the exchange answers (what Regenerate answers again) */
  userMessageId: string | null
  userText: string
  versions: Versions | null
  /** the turn that wrote the answer (what the turn inspector shows) */
  turnId: string | null
  /** the model the server says answered, when it is not the one asked for */
  servedModel?: string | null
  /** the exchange's last answer message, which "Keep in context" pins, and whether it is */
  keep?: { messageId: string; pinned: boolean }
}

export type Row =
  | {
      kind: 'user'
      key: string
      messageId: string | null
      text: string
      /** shown before the host has it */
      pending: boolean
      /** nothing runs: it can be edited (the edit starts a new branch there) */
      canEdit: boolean
      /** kept in context: never summarized or left out */
      pinned?: boolean
      versions: Versions | null
      /** resources attached with `@` (their links; the text went to the model) */
      attached?: { uri: string; name: string }[]
      /** what the message's total left out of its attachments, in words with its size */
      attachedCut?: string[]
      /** the files attached to it (images and documents, stored by the engine) */
      files?: AttachmentPart[]
    }
  | {
      kind: 'answer'
      key: string
      answer: AnswerView
      live: boolean
      model: string | null
      footer: ExchangeFooter | null
    }
  | {
      kind: 'notice'
      key: string
      level: 'info' | 'warning'
      message: string
      until?: number
      attempt?: string
    }
  | {
      kind: 'summary'
      key: string
      text: string
      /** the summary message, when it records what it stands in for (it can be undone) */
      summaryId: string | null
      /** the messages it stands in for, among those loaded */
      covered: number
      /** the covered messages are shown below it */
      expanded: boolean
    }
  | {
      kind: 'end'
      key: string
      end: TurnEnd
      /** what Retry resends */
      retry: { messageId: string; text: string } | null
    }

/** A user message and what answers it, up to the next user message. */
export interface Exchange {
  user: StoredMessage | null
  messages: StoredMessage[]
}

export function isUser(m: StoredMessage): boolean {
  return m.role === 'user' && m.kind === 'message'
}
