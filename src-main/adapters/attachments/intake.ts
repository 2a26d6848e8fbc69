/**
 * A file the user attaches, read once, at attach time: what it is (by its content), whether
 * the limits allow it, then an image made ready to send (`image.ts`) or a document's text
 * extracted in a worker (`../extract/`), and both stored by their content. Anything refused
 * is an `AttachmentRefused` that names the file and says why and what to do.
 */
import type { AttachmentPart } from '../../../src-preload/contract/dto'
import type { AttachmentSettings } from '../../../src-preload/contract/settings-schema'
import { formatBytes, typeLabel } from '../../core/attachments/describe'
import { maxFileBytes } from '../../core/attachments/limits'
import { AttachmentRefused } from '../../core/attachments/refusal'
import { detectFile } from '../extract/detect'
import { extractInWorker, type ExtractLimits } from '../extract/extract'
import type { AttachmentRecord } from '../sqlite/attachment-rows'
import { sha256, type AttachmentFiles } from './attachment-files'
import { ImageDecodeError, prepareImage } from './image'

export interface IntakeDeps {
  files: AttachmentFiles
  store: { recordAttachment(record: AttachmentRecord, pendingMs: number): void }
  settings: AttachmentSettings
  /** how long a file attached but not sent is kept (0: it is sent at once, the CLI) */
  pendingMs: number
  extract?: ExtractLimits
}

/** the most characters of a file's name kept */
const NAME_MAX = 200

/**
 * A file's name as Cairn keeps and shows it: its last path segment, without control
 * characters or direction overrides, at most 200 characters ("file" when nothing is left).
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  let clean = ''
  for (const ch of base) if (!hiddenChar(ch.codePointAt(0)!)) clean += ch
  clean = clean.trim()
  return (clean.length > NAME_MAX ? clean.slice(0, NAME_MAX) : clean) || 'file'
}

/** C0 and C1 controls, and the bidirectional overrides and isolates */
function hiddenChar(c: number): boolean {
  return (
    c <= 0x1f ||
    (c >= 0x7f && c <= 0x9f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  )
}

export async function takeFile(
  input: { name: string; bytes: Uint8Array },
  deps: IntakeDeps,
): Promise<AttachmentPart> {
  const name = cleanFileName(input.name)
  const { bytes } = input
  if (bytes.byteLength === 0)
    throw new AttachmentRefused(name, 'unreadable', `${name} is empty: there is nothing to send.`)
  const found = await detectFile(bytes)
  if (found.kind === 'archive')
    throw new AttachmentRefused(
      name,
      'archive',
      `${name} is ${found.label}: archives are not unpacked. Attach the files inside it instead.`,
      found.mediaType,
    )
  if (found.kind === 'unsupported')
    throw new AttachmentRefused(
      name,
      'unsupported_type',
      `${name} is ${found.label}, which Cairn cannot send to a model. ${found.advice ?? 'Attach an image (PNG, JPEG, WebP, GIF), a PDF, an Office or OpenDocument file, or text.'}`,
      found.mediaType,
    )
  const limit = maxFileBytes(found.kind, deps.settings)
  if (bytes.byteLength > limit) {
    const setting = found.kind === 'image' ? 'maxImageMB' : 'maxDocumentMB'
    throw new AttachmentRefused(
      name,
      'too_large',
      `${name} is ${formatBytes(bytes.byteLength)}: ${found.kind === 'image' ? 'an image' : 'a document'} may be at most ${formatBytes(limit)} (the setting attachments.${setting}).`,
    )
  }
  const source = { mediaType: found.mediaType, bytes: bytes.byteLength, sha256: sha256(bytes) }
  return found.kind === 'image'
    ? takeImage(name, bytes, source, deps)
    : takeDocument(name, bytes, source, deps)
}

export async function takeImage(
  name: string,
  bytes: Uint8Array,
  source: AttachmentPart['source'],
  deps: IntakeDeps,
): Promise<AttachmentPart> {
  let image
  try {
    image = await prepareImage(bytes, source.mediaType, deps.settings.imageLongSide)
  } catch (e) {
    if (!(e instanceof ImageDecodeError)) throw e
    throw new AttachmentRefused(
      name,
      e.unsupported ? 'unsupported_type' : 'damaged',
      `${name} cannot be attached: ${e.message}.`,
      source.mediaType,
    )
  }
  const id = sha256(image.data)
  await store(
    deps,
    { id, mediaType: image.mediaType, bytes: image.data.byteLength, text: null },
    image.data,
  )
  return {
    type: 'attachment',
    id,
    name,
    kind: 'image',
    mediaType: image.mediaType,
    bytes: image.data.byteLength,
    source,
    width: image.width,
    height: image.height,
  }
}

async function takeDocument(
  name: string,
  bytes: Uint8Array,
  source: AttachmentPart['source'],
  deps: IntakeDeps,
): Promise<AttachmentPart> {
  // the worker gets a copy: the bytes are stored from here
  const result = await extractInWorker(bytes.slice(), source.mediaType, deps.extract)
  if (!result.ok) {
    const what = typeLabel(source.mediaType)
    const advice =
      result.problem === 'password_protected'
        ? ' Remove the password (save an unprotected copy) and attach it again.'
        : result.problem === 'too_complex'
          ? ' Cairn stopped reading it; try a smaller or simpler file.'
          : ' Check that the file opens, or save it again.'
    throw new AttachmentRefused(
      name,
      result.problem === 'unsupported_type' ? 'unsupported_type' : result.problem,
      `${name} cannot be attached (${what}): ${result.message}.${advice}`,
      source.mediaType,
    )
  }
  await store(
    deps,
    { id: source.sha256, mediaType: source.mediaType, bytes: bytes.byteLength, text: result.text },
    bytes,
  )
  return {
    type: 'attachment',
    id: source.sha256,
    name,
    kind: 'document',
    mediaType: source.mediaType,
    bytes: bytes.byteLength,
    source,
    ...(result.pages !== undefined ? { pages: result.pages } : {}),
    chars: result.text.length,
    ...(result.noText ? { noText: true } : {}),
  }
}

/** the row first, then the file: a sweep that removed the row before waits, and the file is written again */
async function store(deps: IntakeDeps, record: AttachmentRecord, data: Uint8Array): Promise<void> {
  deps.store.recordAttachment(record, deps.pendingMs)
  await deps.files.write(record.id, data)
}
