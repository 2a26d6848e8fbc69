/**
 * The routes of sending, stopping and attaching: a turn, its files, voice, and the answers to
 * approvals and servers' questions.
 */
import { z } from 'zod'
import type { AttachmentPart } from '../dto'
import type { SequencedAgentEvent } from '../app-events'
import type { ElicitationRequestEvent, ApprovalRequestEvent } from '../events'
import { voiceSourceSchema, type VoiceStatus } from '../voice'
import { promptRefSchema, resourceRefSchema } from '../resources-and-prompts'
import { id, text } from './fields'

export const chatInputs = {
  'chat.send': z.strictObject({
    sessionId: id.optional(),
    /** may be empty when files are attached */
    text: z.string().max(1_000_000),
    model: text(500).optional(),
    workspace: text(4096).optional(),
    /**
     * Edit, retry: the id of a user message of the session; this message is a new version
     * of it (a new branch where it was). The earlier version stays, on its branch.
     */
    replaces: id.optional(),
    /**
     * The id of the message this one follows (a new branch there when others followed it);
     * after a message with tool calls, it follows their results. Unset: after the end of
     * the open branch.
     */
    after: id.optional(),
    /** resources attached with `@`: read when the message is sent, stored with it */
    attachments: z.array(resourceRefSchema).max(10).optional(),
    /** files attached (`attachments.add`, `attachments.addPicked`): their tokens, in order */
    files: z.array(id).max(100).optional(),
    /** a server's prompt (`/server:prompt`): its messages are sent instead of `text` */
    prompt: promptRefSchema.optional(),
    /**
     * A new chat: the assistant it starts with (unset: the default assistant). With
     * `sessionId`: the session switches to it from this turn on.
     */
    assistantId: id.optional(),
    /** A new chat: the project it starts in (unset: none). An existing chat keeps its own. */
    projectId: id.optional(),
  }),
  /**
   * Regenerate: another answer to a user message (`messageId`, or an answer to it): a new
   * branch after it; the earlier answer stays, on its own.
   */
  'chat.regenerate': z.strictObject({ sessionId: id, messageId: id, model: text(500).optional() }),
  'chat.stop': z.strictObject({ turnId: id }),
  /**
   * A file the user attaches (dropped, pasted, chosen in browser mode's file input): read
   * now, once; refused (`attachment_refused`) with the file's name and why. Browser mode
   * sends the bytes to its upload address instead, which calls this route.
   */
  'attachments.add': z.strictObject({
    name: z.string().min(1).max(1000),
    data: z.instanceof(Uint8Array),
  }),
  /** the desktop app's open dialog for files to attach (browser mode: `unavailable`) */
  'attachments.pick': z.strictObject({}),
  /** reads one file chosen in `attachments.pick` (by its pick id) */
  'attachments.addPicked': z.strictObject({ pickId: id }),
  /** a stored attachment's file (the large view of an image) */
  'attachments.get': z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** a stored image's small preview (the history's thumbnails) */
  'attachments.thumbnail': z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** a stored document's extracted text ("Show extracted text") */
  'attachments.text': z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/) }),
  /**
   * A PDF attached in the window that has no text layer (a scan): its first pages drawn as
   * images, each read like an attached image (its own token), named after `name` and the
   * page; refused (`attachment_refused`) when it is no stored PDF or cannot be drawn
   */
  'attachments.pdfPages': z.strictObject({
    id: z.string().regex(/^[0-9a-f]{64}$/),
    name: z.string().min(1).max(1000),
  }),
  'chat.attach': z.strictObject({ sessionId: id }),
  'chat.status': z.strictObject({}),
  /**
   * Voice input: starts listening through the voice server (finals go to `sessionId`; none:
   * the first starts a new chat). Already listening: finals go to this chat from now on.
   */
  'voice.start': z.strictObject({
    sessionId: id.nullable().optional(),
    source: voiceSourceSchema.optional(),
  }),
  /** stops listening (the server's session is closed); finals already queued are still sent */
  'voice.stop': z.strictObject({}),
  'voice.status': z.strictObject({}),
  'approvals.respond': z.strictObject({
    requestId: id,
    decision: z.enum(['allow_once', 'allow_always', 'deny']),
    reason: text(2000).optional(),
  }),
  'elicitations.respond': z.strictObject({
    requestId: id,
    action: z.enum(['accept', 'decline', 'cancel']),
    /** accept: the answer, checked against the server's schema before it is sent */
    content: z
      .record(
        z.string().max(1000),
        z.union([
          z.string().max(100_000),
          z.number(),
          z.boolean(),
          z.array(z.string().max(10_000)).max(1000),
        ]),
      )
      .optional(),
  }),
} satisfies Record<keyof ChatOutputs, z.ZodType>

/** What each route answers. */
export interface ChatOutputs {
  'chat.send': { sessionId: string; turnId: string }
  'chat.regenerate': { sessionId: string; turnId: string }
  'chat.stop': { stopped: boolean }
  'attachments.add': AttachmentTaken
  /** the files chosen (none: cancelled); each is read with `attachments.addPicked` */
  'attachments.pick': { files: { pickId: string; name: string; bytes: number }[] }
  'attachments.addPicked': AttachmentTaken
  'attachments.get': { mediaType: string; data: string }
  /** a `data:` URL; null when the file is no longer stored */
  'attachments.thumbnail': { url: string | null }
  /** null when the file is no longer stored */
  'attachments.text': { text: string | null }
  /** the pages, in order */
  'attachments.pdfPages': { pages: AttachmentTaken[] }
  'voice.start': VoiceStatus
  'voice.stop': VoiceStatus
  'voice.status': VoiceStatus
  'chat.attach': {
    /** the running turn's events so far, or null when no turn is running */
    turn: { turnId: string; events: SequencedAgentEvent[] } | null
    /** approval requests still waiting for an answer */
    pendingApprovals: ApprovalRequestEvent[]
    /** servers' questions (elicitations) still waiting for an answer (absent: none) */
    pendingElicitations?: ElicitationRequestEvent[]
  }
  /** every running turn and every approval still waiting, in all sessions */
  'chat.status': {
    turns: { sessionId: string; turnId: string }[]
    pendingApprovals: ApprovalRequestEvent[]
    pendingElicitations?: ElicitationRequestEvent[]
  }
  'approvals.respond': { accepted: boolean }
  /** `error`: the answer does not fit the form (nothing was sent) */
  'elicitations.respond': { accepted: boolean; error?: string }
}

/** A file read and stored for a message not yet sent. */
export interface AttachmentTaken {
  /** what `chat.send` names it by (`files`) */
  token: string
  part: AttachmentPart
  /** an image's small preview (`data:` URL) made by the engine; null for documents */
  thumbnail: string | null
}
