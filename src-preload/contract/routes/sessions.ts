/**
 * The routes of chats: their list, pages of the open branch, search, branches, export, compaction,
 * pins and turn logs.
 */
import { z } from 'zod'
import type { TurnLogItem } from '../app-dto'
import type { SearchHit, SessionRecord, StoredMessage, BranchVersions } from '../dto'
import { id, text, page } from './fields'

export const sessionsInputs = {
  'sessions.list': z.strictObject({ ...page, includeArchived: z.boolean().optional() }),
  'sessions.get': z.strictObject({
    id,
    beforeSeq: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  }),
  'sessions.search': z.strictObject({
    query: text(1000),
    order: z.enum(['newest', 'ranked']).optional(),
    ...page,
  }),
  /**
   * Opens the branch that shows a message, by its number (`seq`: "‹ 2/3 ›") or its id (a
   * search hit on another branch). Unchanged when the open branch holds it already.
   */
  'sessions.openBranch': z
    .strictObject({ id, seq: z.number().int().positive().optional(), messageId: id.optional() })
    .refine((v) => (v.seq === undefined) !== (v.messageId === undefined), {
      message: 'Give either seq or messageId.',
    }),
  /**
   * "Branch into new chat": a new chat holding the path up to a message (its number or
   * id); its title says where it came from and its origin links back
   */
  'sessions.fork': z
    .strictObject({ id, seq: z.number().int().positive().optional(), messageId: id.optional() })
    .refine((v) => (v.seq === undefined) !== (v.messageId === undefined), {
      message: 'Give either seq or messageId.',
    }),
  'sessions.rename': z.strictObject({ id, title: text(500) }),
  'sessions.pin': z.strictObject({ id, pinned: z.boolean() }),
  /** moves the chat into a project (`null`: "No project") */
  'sessions.setProject': z.strictObject({ id, projectId: id.nullable() }),
  /** switches the session's model from its next turn on */
  'sessions.setModel': z.strictObject({ id, model: z.string().min(1).max(500) }),
  /** switches the session's assistant from its next turn on (a running turn keeps its own) */
  'sessions.setAssistant': z.strictObject({ id, assistantId: id }),
  'sessions.delete': z.strictObject({ id }),
  'sessions.export': z.strictObject({ id, format: z.enum(['md', 'json']) }),
  /** summarizes the middle of the conversation now (`/compact`) */
  'sessions.compact': z.strictObject({ id }),
  /** removes a summary: the next request sends the messages it stood in for */
  'sessions.undoCompaction': z.strictObject({ id, summaryId: id }),
  /** the estimated size of the next request and the context window it must fit */
  'sessions.context': z.strictObject({ id }),
  /** "Keep in context": a pinned message is never summarized or left out */
  'messages.pin': z.strictObject({ sessionId: id, messageId: id, pinned: z.boolean() }),
  'logs.turns': z.strictObject({ sessionId: id, ...page }),
} satisfies Record<keyof SessionsOutputs, z.ZodType>

/** What each route answers. */
export interface SessionsOutputs {
  'sessions.list': { sessions: SessionRecord[]; total: number }
  /** a page of the open branch (from its end, or before `beforeSeq`) and its versions */
  'sessions.get': {
    session: SessionRecord
    messages: StoredMessage[]
    hasMore: boolean
    /** the versions along the branch (absent: none) */
    versions?: BranchVersions
  }
  'sessions.openBranch': SessionRecord
  'sessions.fork': SessionRecord
  'sessions.search': { hits: SearchHit[] }
  'sessions.rename': SessionRecord
  'sessions.pin': SessionRecord
  'sessions.setProject': SessionRecord
  'sessions.setModel': SessionRecord
  'sessions.setAssistant': SessionRecord
  'sessions.delete': { deleted: boolean }
  /**
   * `files`: a Markdown export's attached files, by their path relative to it (a folder
   * beside it that its links point into), base64; `app.saveFile` writes them beside it
   */
  'sessions.export': {
    filename: string
    mimeType: string
    content: string
    files: { path: string; data: string }[]
  }
  /** `compacted: false`: there was nothing between the first message and the last exchanges */
  'sessions.compact': {
    compacted: boolean
    summaryId: string | null
    coveredFrom: number | null
    coveredTo: number | null
    tokensBefore: number
    tokensAfter: number
    fallback: boolean
  }
  'sessions.undoCompaction': { removed: boolean }
  'sessions.context': {
    estimatedTokens: number
    /** 0: unknown (fitting off) */
    windowTokens: number
    compactAtPercent: number
    /** where the window comes from, in words */
    windowSource: string
  }
  'messages.pin': StoredMessage
  'logs.turns': { total: number; items: TurnLogItem[] }
}
