/**
 * A user message's attachments (resources picked with `@`, read when it was sent) as the
 * model gets them: their text after the message, each under a line naming it; images as
 * image parts where the model takes images, else a note saying one was left out.
 */
import type { StoredMessage } from '../../../src-preload/contract/dto'

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
