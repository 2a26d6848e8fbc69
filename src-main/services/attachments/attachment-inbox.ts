/**
 * The files attached in a window, read and stored but not yet sent: each has a token, which
 * `chat.send` names it by, so the message carries what the engine read (never what a page
 * says a file is). A token lasts as long as the stored file is kept for it (a day); a send
 * that fails leaves them, so the same message can be sent again.
 */
import { randomUUID } from 'node:crypto'
import type { AttachmentPart } from '../../../src-preload/contract/dto'
import { AttachmentRefused } from '../../core/attachments/refusal'

const TOKEN_MS = 24 * 60 * 60_000
/** tokens kept at most (the oldest go first) */
const MAX_TOKENS = 2_000

export class AttachmentInbox {
  private readonly held = new Map<string, { part: AttachmentPart; until: number }>()

  constructor(private readonly now: () => number = Date.now) {}

  put(part: AttachmentPart): string {
    const token = randomUUID()
    this.held.set(token, { part, until: this.now() + TOKEN_MS })
    for (const [old] of this.held) {
      if (this.held.size <= MAX_TOKENS) break
      this.held.delete(old)
    }
    return token
  }

  /** the parts of these tokens, in order; one unknown or expired is refused, naming it */
  parts(tokens: readonly string[]): AttachmentPart[] {
    const now = this.now()
    return tokens.map((token, i) => {
      const held = this.held.get(token)
      if (!held || held.until < now)
        throw new AttachmentRefused(
          `attachment ${i + 1}`,
          'expired',
          `Attachment ${i + 1} of this message is no longer held by Cairn (it was attached more than a day ago, or before Cairn restarted): remove it and attach the file again.`,
        )
      return held.part
    })
  }
}
