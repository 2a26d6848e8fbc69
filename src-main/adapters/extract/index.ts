/**
 * Cairn's extractors, for whatever needs a file's text (the attachments of a message; an
 * index of files): what a file is by its content (`detectFile`, never by its name) and its
 * text, read in a worker thread with a time limit and a memory limit (`extractInWorker`), so
 * a hostile or broken file costs that worker and is said as a problem.
 *
 * The entry is `fileText(bytes)`: one call, one answer that says what the file is and either
 * its text (with its pages, and whether it has none: a scanned PDF) or why there is none.
 * Images are not read here (see adapters/attachments/image.ts).
 */
import { detectFile, type Detected } from './detect'
import { extractInWorker, type ExtractLimits, type ExtractOutcome } from './extract'
import { extractText } from './extract-text'

export { decodeText, detectFile, DOCUMENT_TYPES, IMAGE_TYPES, type Detected } from './detect'
export {
  EXTRACT_MEMORY_MB,
  EXTRACT_TIMEOUT_MS,
  extractInWorker,
  type ExtractLimits,
  type ExtractOutcome,
} from './extract'
export type { Extracted, ExtractProblem } from './extract-text'

export type FileText =
  | { detected: Extract<Detected, { kind: 'document' }>; outcome: ExtractOutcome }
  | { detected: Exclude<Detected, { kind: 'document' }>; outcome: null }

/**
 * What `bytes` are, and the text of a document (null for anything else). `textHere`: plain
 * text is decoded in the calling thread (a caller that is a worker already, reading many
 * files); documents are always read in a worker of their own.
 */
export async function fileText(
  bytes: Uint8Array,
  limits: ExtractLimits = {},
  o: { textHere?: boolean } = {},
): Promise<FileText> {
  const detected = await detectFile(bytes)
  if (detected.kind !== 'document') return { detected, outcome: null }
  if (o.textHere === true && detected.mediaType === 'text/plain')
    return { detected, outcome: await extractText(bytes, detected.mediaType) }
  // the worker gets a copy: the caller keeps its bytes
  return { detected, outcome: await extractInWorker(bytes.slice(), detected.mediaType, limits) }
}
