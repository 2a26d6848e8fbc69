/**
 * The one place a user message's attachments are measured, whatever carries them (files the
 * user attached, resources picked with `@`, the CLI's `@server:uri` mentions):
 * - before sending, `checkMessageParts` refuses a message over the settings' limits (how many
 *   files, and the MB of files and resources together), naming the file;
 * - when the message is saved, `capAttachments` keeps what the resources brought within what
 *   a model can take (their text and images), saying what was left out with its size.
 * Attached documents are cut later, to the room the context window has (fit-documents.ts).
 */
import type { ContentPart } from '../../../src-preload/contract/dto'
import type { AttachmentSettings } from '../../../src-preload/contract/settings-schema'
import { capParts } from '../agent/tool-content'
import { formatBytes } from './describe'
import { AttachmentRefused } from './refusal'

export const DEFAULT_ATTACHMENT_SETTINGS: Readonly<AttachmentSettings> = Object.freeze({
  maxImageMB: 20,
  maxDocumentMB: 50,
  maxFiles: 20,
  maxMessageMB: 100,
  imageLongSide: 2048,
})

export const MB = 1024 * 1024

/** The most bytes one file of `kind` may have. */
export function maxFileBytes(kind: 'image' | 'document', s: AttachmentSettings): number {
  return (kind === 'image' ? s.maxImageMB : s.maxDocumentMB) * MB
}

/** the bytes a part brings to a message: a file as it was given, a resource's text or image */
export function partBytes(p: ContentPart): number {
  switch (p.type) {
    case 'attachment':
      return p.source.bytes
    case 'image':
      return Math.floor((p.data.length * 3) / 4)
    case 'resource':
      return p.text?.length ?? 0
    case 'text':
      return p.text.length
    default:
      return 0
  }
}

/** what a part is called in a refusal: the file's name, or the resource's address */
function partName(p: ContentPart, lastUri: string): string {
  if (p.type === 'attachment') return p.name
  if (p.type === 'resource') return p.uri
  return lastUri || 'an attached resource'
}

/**
 * One message's files and `@` resources against the limits, before it is sent: at most
 * `maxFiles` files, and `maxMessageMB` in all, files and resources together (the one total
 * of a message). Throws an `AttachmentRefused` naming the file that does not fit.
 */
export function checkMessageParts(parts: readonly ContentPart[], s: AttachmentSettings): void {
  const files = parts.filter((p) => p.type === 'attachment')
  if (files.length > s.maxFiles) {
    const first = files[s.maxFiles]!
    throw new AttachmentRefused(
      first.name,
      'too_many',
      `A message may carry at most ${s.maxFiles} files (the setting attachments.maxFiles); ${files.length} are attached. Remove some, or send them in another message.`,
    )
  }
  const max = s.maxMessageMB * MB
  let total = 0
  let uri = ''
  for (const p of parts) {
    if (p.type === 'resource_link') uri = p.uri
    total += partBytes(p)
    if (total > max) {
      const name = partName(p, uri)
      throw new AttachmentRefused(
        name,
        'message_too_large',
        `${name} does not fit: a message may carry at most ${formatBytes(max)} of files and resources together (the setting attachments.maxMessageMB), and with it this one carries ${formatBytes(total)}. Remove something, or send it in another message.`,
      )
    }
  }
}

/** characters of attached text one user message keeps (all its resources together) */
export const MAX_ATTACHED_CHARS = 200_000
/** characters of attached images (base64) one user message keeps: one image's worth */
export const MAX_ATTACHED_IMAGE_CHARS = 8 * 1024 * 1024

/**
 * What a user message's resources brought, within the one total of a message (an `@`
 * resource with many images, several resources): the rest is left out, saying so. Attached
 * files pass as they are: they were checked by `checkMessageParts` before sending.
 */
export function capAttachments(parts: ContentPart[]): ContentPart[] {
  return capParts(parts, 'the attachments', {
    maxChars: MAX_ATTACHED_CHARS,
    maxImageChars: MAX_ATTACHED_IMAGE_CHARS,
  })
}
