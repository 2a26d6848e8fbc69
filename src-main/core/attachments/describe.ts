/**
 * How an attachment is named in words: to the model (the line above a document's text, the
 * stand-in a summary keeps), in the CLI and in the exports. The file's name is the user's
 * and is only ever text.
 */
import type { AttachmentPart } from '../../../src-preload/contract/dto'

const LABELS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation':
    'PowerPoint presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook',
  'application/vnd.oasis.opendocument.text': 'OpenDocument text',
  'application/vnd.oasis.opendocument.presentation': 'OpenDocument presentation',
  'application/vnd.oasis.opendocument.spreadsheet': 'OpenDocument spreadsheet',
  'text/plain': 'text',
  'image/jpeg': 'JPEG image',
  'image/png': 'PNG image',
  'image/webp': 'WebP image',
  'image/gif': 'GIF image',
  'image/avif': 'AVIF image',
  'image/heic': 'HEIC image',
  'image/tiff': 'TIFF image',
  'image/svg+xml': 'SVG image',
}

/** "PDF", "Word document", "JPEG image"; the media type itself when it has no name */
export function typeLabel(mediaType: string): string {
  return LABELS[mediaType] ?? mediaType
}

/** 1 234 567 → "1.2 MB" */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  const mb = bytes / (1024 * 1024)
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`
}

/** 40312 → "40 312" (the README's way of writing numbers) */
export function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')
}

/** what is known of an attachment, in brackets after its name */
export function attachmentFacts(p: AttachmentPart): string {
  if (p.kind === 'image') {
    const size = p.width && p.height ? `, ${p.width}×${p.height}` : ''
    return `${typeLabel(p.source.mediaType)}${size}, ${formatBytes(p.bytes)}`
  }
  const facts = [typeLabel(p.mediaType)]
  if (p.pages) facts.push(`${groupDigits(p.pages)} ${p.pages === 1 ? 'page' : 'pages'}`)
  if (p.noText) facts.push('no text')
  else if (p.chars !== undefined) facts.push(`${groupDigits(p.chars)} characters`)
  return facts.join(', ')
}

/** `report.pdf (PDF, 12 pages, 40 312 characters)` */
export function describeAttachment(p: AttachmentPart): string {
  return `${p.name} (${attachmentFacts(p)})`
}

/** the one line a summary keeps for an attachment of the messages it stands in for */
export function attachmentStandIn(p: AttachmentPart): string {
  return `[Attached earlier: ${describeAttachment(p)}; summarized above, no longer sent]`
}

export function isAttachment(p: { type: string }): p is AttachmentPart {
  return p.type === 'attachment'
}
