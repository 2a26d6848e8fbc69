/**
 * How the window names an attached file's size and kind (the engine's words for the model
 * and the CLI are core/attachments/describe.ts, which the window cannot import).
 */
const KINDS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'text/plain': 'Text',
}

/** "PDF", "Word", "Text"; "ODT" and such from the media type's last word */
export function kindLabel(mediaType: string): string {
  if (KINDS[mediaType]) return KINDS[mediaType]
  if (mediaType.startsWith('image/')) return 'Image'
  if (mediaType.includes('opendocument')) return 'OpenDocument'
  return 'File'
}

/** 1 234 567 → "1.2 MB" */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  const mb = bytes / (1024 * 1024)
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`
}

/** 40312 → "40 312" */
export function countLabel(n: number): string {
  return n.toLocaleString('en-US').replace(/,/g, ' ')
}
