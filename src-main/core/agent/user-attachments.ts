/**
 * A user message's attachments as the model gets them: the text of resources picked with
 * `@` and of attached documents after the message, each under a line naming it; images as
 * image parts where the model takes images, else a note saying one was left out. A
 * document may be sent cut (`DocumentCaps`, to fit the context window), saying how much was
 * left out.
 */
import type { AttachmentPart, StoredMessage } from '../../../src-preload/contract/dto'
import { describeAttachment, groupDigits } from '../attachments/describe'
import { IMAGE_TOKENS, imageTokens } from '../llm/estimate'
import type { AttachmentReader } from '../ports'

export type UserWirePart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string }; [IMAGE_TOKENS]?: number }

/** the most characters of each document (by attachment id) a request carries */
export type DocumentCaps = ReadonlyMap<string, number>

/** A document as one request carries it. */
export interface DocumentSent {
  id: string
  name: string
  /** characters extracted */
  chars: number
  /** characters sent */
  sent: number
}

export interface AttachmentsView {
  reader?: AttachmentReader | undefined
  caps?: DocumentCaps | undefined
  /** each document sent is added here */
  documents?: DocumentSent[] | undefined
}

/**
 * `imageInput`: images of `@` resources are sent; `attachedImages`: images the user attached
 * are (unless the model is known not to see).
 */
export function userWireContent(
  m: StoredMessage,
  imageInput: boolean,
  view: AttachmentsView = {},
  attachedImages = true,
): string | UserWirePart[] {
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
      case 'attachment':
        if (p.kind === 'image') text += attachedImage(p, attachedImages, view, images)
        else text += attachedDocument(p, view)
        break
    }
  }
  return images.length > 0 ? [{ type: 'text', text }, ...images] : text
}

function attachedImage(
  p: AttachmentPart,
  imageInput: boolean,
  view: AttachmentsView,
  images: UserWirePart[],
): string {
  if (!imageInput)
    return `\n\n[An image (${p.name}) was attached, but this model does not take images]`
  const url = view.reader?.imageDataUrl(p) ?? null
  if (url === null) return `\n\n[The attached image ${p.name} is no longer stored]`
  images.push({
    type: 'image_url',
    image_url: { url },
    [IMAGE_TOKENS]: imageTokens(p.width ?? 0, p.height ?? 0),
  })
  return `\n\n[Attached image: ${describeAttachment(p)}]`
}

function attachedDocument(p: AttachmentPart, view: AttachmentsView): string {
  const head = `\n\n[Attached file: ${describeAttachment(p)}]`
  if (p.noText)
    return `${head}\n[It has no text to extract: it may be a scan or a picture of text.]`
  const whole = view.reader?.text(p) ?? null
  if (whole === null) return `${head}\n[Its text is no longer stored.]`
  const cap = view.caps?.get(p.id)
  const sent = cap === undefined || cap >= whole.length ? whole : whole.slice(0, Math.max(0, cap))
  view.documents?.push({ id: p.id, name: p.name, chars: whole.length, sent: sent.length })
  const left = whole.length - sent.length
  const cut =
    left > 0
      ? `\n[${groupDigits(left)} of its ${groupDigits(whole.length)} characters were left out here: the document did not fit in the model's context window.]`
      : ''
  return `${head}\n${sent}${cut}\n[End of ${p.name}]`
}
