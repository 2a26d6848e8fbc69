/**
 * A user message's attachments (resources picked with `@`, read when it was sent) as the
 * model gets them: their text after the message, each under a line naming it; images as
 * image parts where the model takes images, else a note saying one was left out.
 */
import type { ContentPart, StoredMessage } from '../../../src-preload/contract/dto'
import { capParts } from './tool-content'

/** characters of attached text one user message keeps (all its resources together) */
export const MAX_ATTACHED_CHARS = 200_000
/** characters of attached images (base64) one user message keeps: one image's worth */
export const MAX_ATTACHED_IMAGE_CHARS = 8 * 1024 * 1024

/**
 * A user message's attachments within the one total of a message, whatever carries them
 * (an `@` resource with many images, several attachments): the rest is left out, saying so.
 */
export function capAttachments(parts: ContentPart[]): ContentPart[] {
  return capParts(parts, 'the attachments', {
    maxChars: MAX_ATTACHED_CHARS,
    maxImageChars: MAX_ATTACHED_IMAGE_CHARS,
  })
}

export type UserWirePart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

export function userWireContent(m: StoredMessage, imageInput: boolean): string | UserWirePart[] {
  const parts = m.parts ?? []
  if (parts.length === 0) return m.content
  let text = m.content
  let source = ''
  const images: UserWirePart[] = []
  for (const p of parts) {
    switch (p.type) {
      case 'resource_link':
        source = p.uri
        break
      case 'resource':
        text += `\n\n[Attached resource ${p.uri}${p.mimeType ? ` (${p.mimeType})` : ''}]\n${p.text ?? ''}`
        break
      case 'image':
        if (imageInput) {
          text += `\n\n[Attached image ${source}]`
          images.push({
            type: 'image_url',
            image_url: { url: `data:${p.mimeType};base64,${p.data}` },
          })
        } else {
          text += `\n\n[An image (${source}) was attached, but this model does not take images]`
        }
        break
      case 'text':
        text += `\n\n${p.text}`
        break
    }
  }
  return images.length > 0 ? [{ type: 'text', text }, ...images] : text
}
