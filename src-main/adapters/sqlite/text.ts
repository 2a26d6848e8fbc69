/**
 * Text derived from messages: session titles and the text that goes into the search index.
 * Pure functions, no database.
 */
import type { NewMessage, ToolCallRecord } from '../../../src-preload/contract/dto'

/** Titles longer than this are cut on a word boundary and end with `…`. */
export const TITLE_MAX = 60

/** Per indexed column; the rest of a huge tool result is stored but not searchable. */
export const INDEX_MAX_CHARS = 200_000

/** Runs of base64 alphabet at least this long are never indexed. */
export const BASE64_RUN_MIN = 200

/**
 * A title from the first line with text of a user message: whitespace collapsed, cut at
 * `TITLE_MAX` characters on a word boundary (a hard cut when the first word is too long).
 * Empty when there is no text.
 */
export function titleFromText(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l.length > 0) ?? ''
  if (line.length <= TITLE_MAX) return line
  const head = line.slice(0, TITLE_MAX)
  const space = head.lastIndexOf(' ')
  const cut = space >= TITLE_MAX / 2 ? head.slice(0, space) : line.slice(0, TITLE_MAX - 1)
  return `${cut.trimEnd()}…`
}

/** A title as given by the user (rename): one line, trimmed, not absurdly long. */
export function cleanTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().slice(0, 500)
}

const DATA_URI = /data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/=]*/gi

function isBase64Char(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    (code >= 48 && code <= 57) || // 0-9
    code === 43 || // +
    code === 47 || // /
    code === 61 // =
  )
}

/**
 * Removes what must never reach the index: `data:…;base64,…` URIs and runs of at least
 * `BASE64_RUN_MIN` base64 characters (pasted or tool-returned binary). Linear time.
 */
export function stripBase64(text: string): string {
  const noUris = text.replace(DATA_URI, ' ')
  let out = ''
  let kept = 0
  let runStart = -1
  for (let i = 0; i <= noUris.length; i++) {
    const inRun = i < noUris.length && isBase64Char(noUris.charCodeAt(i))
    if (inRun) {
      if (runStart < 0) runStart = i
      continue
    }
    if (runStart >= 0 && i - runStart >= BASE64_RUN_MIN) {
      out += noUris.slice(kept, runStart) + ' '
      kept = i
    }
    runStart = -1
  }
  return kept === 0 ? noUris : out + noUris.slice(kept)
}

function limit(text: string): string {
  return text.length > INDEX_MAX_CHARS ? text.slice(0, INDEX_MAX_CHARS) : text
}

function callText(calls: ToolCallRecord[] | null | undefined): string {
  if (!calls || calls.length === 0) return ''
  return calls.map((c) => `${c.name} ${c.arguments}`).join('\n')
}

export interface IndexedText {
  /** the message's text; for tool messages, the result */
  text: string
  /** tool names and arguments of an assistant's tool calls */
  toolArgs: string
}

/**
 * What the search index holds for a message, or null when nothing is indexed.
 *
 * Indexed: conversation messages (`kind: 'message'`: user and assistant text, tool-call
 * arguments, tool results) and notices (a user may look for an error they saw).
 * Also indexed: the extracted text of the documents attached to a message (`documents`).
 * Not indexed: summaries (they restate messages that stay stored and indexed, so they
 * would only duplicate hits), reasoning, other `parts` (images), system messages.
 */
export function indexedText(
  message: NewMessage,
  documents: readonly string[] = [],
): IndexedText | null {
  const kind = message.kind ?? 'message'
  if (kind === 'summary' || message.role === 'system') return null
  // each attached document's text is searchable as far as a message's own (its first 200 000 characters)
  const text = [message.content, ...documents].map((t) => limit(stripBase64(t))).join('\n\n')
  const toolArgs = limit(stripBase64(callText(message.toolCalls)))
  if (text.trim() === '' && toolArgs.trim() === '') return null
  return { text, toolArgs }
}
