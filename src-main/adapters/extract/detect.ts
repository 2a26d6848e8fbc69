/**
 * What a file is, by its content, never by its name: an image Cairn can send, a document it
 * can turn into text, plain text of any kind (Markdown, code, CSV, JSON, logs), or something
 * it refuses (an archive, which is never unpacked, or binary data it cannot read), named by
 * what it was found to be.
 */
import FileType from 'file-type/core.js'

export type Detected =
  | { kind: 'image'; mediaType: string }
  | { kind: 'document'; mediaType: string }
  | { kind: 'archive'; mediaType: string; label: string }
  | { kind: 'unsupported'; mediaType: string; label: string; advice?: string }

/** images the image library decodes (HEIC only where it has the codec: see image.ts) */
export const IMAGE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
  'image/tiff',
  'image/svg+xml',
])

/** documents whose text the extractors read (`extract-text.ts`) */
export const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.presentation',
  'application/vnd.oasis.opendocument.spreadsheet',
  'text/plain',
])

const ARCHIVES = new Set([
  'zip',
  'tar',
  'rar',
  'gz',
  'bz2',
  '7z',
  'xz',
  'zst',
  'lz',
  'cab',
  'deb',
  'rpm',
  'ar',
  'lzh',
  'Z',
  'cpio',
  'dmg',
  'jar',
  'xpi',
  'apk',
  'epub',
])

/** file-type's ids whose media type is not what the files say of themselves */
const MEDIA_TYPES: Record<string, string> = {
  heic: 'image/heic',
  avif: 'image/avif',
}

/** what older Office files need instead */
const LEGACY_OFFICE =
  'Word, Excel and PowerPoint files from before 2007 (.doc, .xls, .ppt) cannot be read: save it as .docx, .xlsx or .pptx.'

export async function detectFile(bytes: Uint8Array): Promise<Detected> {
  const found = await FileType.fromBuffer(bytes)
  // an SVG with an XML prolog is found as XML: what its root is decides
  if (found?.ext === 'xml') {
    const text = decodeText(bytes.subarray(0, SNIFF_BYTES), { partial: bytes.length > SNIFF_BYTES })
    if (text !== null && isSvg(text)) return { kind: 'image', mediaType: 'image/svg+xml' }
    return { kind: 'document', mediaType: 'text/plain' }
  }
  if (found) {
    const mediaType = MEDIA_TYPES[found.ext] ?? found.mime
    if (IMAGE_TYPES.has(mediaType)) return { kind: 'image', mediaType }
    if (DOCUMENT_TYPES.has(mediaType)) return { kind: 'document', mediaType }
    if (ARCHIVES.has(found.ext))
      return { kind: 'archive', mediaType, label: `a ${found.ext} archive` }
    if (found.ext === 'cfb')
      return {
        kind: 'unsupported',
        mediaType,
        label: 'an older Office file',
        advice: LEGACY_OFFICE,
      }
    return { kind: 'unsupported', mediaType, label: `${found.ext.toUpperCase()} (${found.mime})` }
  }
  // text is known by its start: the whole file is decoded where its text is read (the worker)
  const text = decodeText(bytes.subarray(0, SNIFF_BYTES), { partial: bytes.length > SNIFF_BYTES })
  if (text === null)
    return { kind: 'unsupported', mediaType: 'application/octet-stream', label: 'binary data' }
  if (isSvg(text)) return { kind: 'image', mediaType: 'image/svg+xml' }
  return { kind: 'document', mediaType: 'text/plain' }
}

/** the start of a file that tells text from binary data */
const SNIFF_BYTES = 64 * 1024

/** bytes read for the start of an SVG document (after a prolog, comments, a doctype) */
const SVG_HEAD = 4096

function isSvg(text: string): boolean {
  const head = text
    .slice(0, SVG_HEAD)
    .replace(/^\uFEFF/, '')
    .trimStart()
  if (!head.startsWith('<')) return false
  const tag = /<svg[\s>]/i.exec(head)
  if (!tag) return false
  // only a prolog, comments and a doctype may stand before the root element
  const before = head.slice(0, tag.index)
  return !/<(?![?!])/.test(before)
}

/**
 * The file as text when it is text: UTF-8 (or UTF-16 with its byte order mark), else a
 * single-byte encoding (Windows-1252) when it holds no control characters but tabs and line
 * breaks; null for binary data.
 */
export function decodeText(
  bytes: Uint8Array,
  /** `partial`: the start of a file, which may end inside a character */
  o: { partial?: boolean } = {},
): string | null {
  const stream = o.partial === true
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return safeDecode('utf-16le', bytes.subarray(2), stream)
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return safeDecode('utf-16be', bytes.subarray(2), stream)
  if (hasBinaryControls(bytes)) return null
  return safeDecode('utf-8', bytes, stream) ?? safeDecode('windows-1252', bytes, stream)
}

function safeDecode(encoding: string, bytes: Uint8Array, stream: boolean): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream })
  } catch {
    return null
  }
}

/** NUL and the other C0 controls but tab, line feed, form feed and carriage return (and ESC) */
function hasBinaryControls(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) return true
  }
  return false
}
