/**
 * Imports an export file into the store: each conversation read from the stream is
 * written in one transaction of its own (so a crash leaves whole conversations only), one
 * that cannot be read is named by its position and title and skipped, and the rest goes
 * on. Cancelling stops between two conversations; what was written stays.
 */
import { stat } from 'node:fs/promises'
import type {
  ImportProgress,
  ImportSkip,
  ImportSource,
  ImportSummary,
} from '../../../src-preload/contract/dto'
import {
  conversationTitle,
  MalformedConversation,
  type ImportedConversation,
} from '../../core/import/conversation'
import { readConversation } from '../../core/import/read-conversation'
import { ImportUnreadableError } from './import-errors'
import { exportItems, openExport } from './read-export'

/** what the import writes to: the session store's `importConversation` */
export interface ImportTarget {
  importConversation(c: ImportedConversation): { created: boolean; added: number }
}

export interface ImportFileOptions {
  onProgress?: (p: ImportProgress) => void
  signal?: AbortSignal
  /** progress at most this often (ms); default 100 */
  progressEveryMs?: number
  /** the file's name as the user knows it (an upload's copy has another), for errors */
  name?: string
}

function emptySummary(): ImportSummary {
  return {
    conversations: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    messages: 0,
    skipped: [],
    cancelled: false,
    sources: [],
  }
}

function skipOf(position: number, value: unknown, e: unknown): ImportSkip {
  if (!(e instanceof MalformedConversation)) throw e
  return { position, title: conversationTitle(value), problem: 'malformed', reason: e.message }
}

function count(
  summary: ImportSummary,
  source: ImportSource,
  w: { created: boolean; added: number },
): void {
  if (!summary.sources.includes(source)) summary.sources.push(source)
  if (w.created) summary.created++
  else if (w.added > 0) summary.updated++
  else summary.unchanged++
  summary.messages += w.added
}

export async function importFile(
  target: ImportTarget,
  file: string,
  opts: ImportFileOptions = {},
): Promise<ImportSummary> {
  const label = opts.name ?? file
  let size: number
  try {
    size = (await stat(file)).size
  } catch {
    throw new ImportUnreadableError(label, 'not_found', 'there is no such file')
  }
  const source = await openExport(file, size, label)
  const summary = emptySummary()
  const every = opts.progressEveryMs ?? 100
  let last = 0
  let bytes = 0
  const progress = (force = false): void => {
    const now = Date.now()
    if (!opts.onProgress || (!force && now - last < every)) return
    last = now
    opts.onProgress({ conversations: summary.conversations, bytes, totalBytes: source.totalBytes })
  }
  for await (const item of exportItems(label, source, (b) => void (bytes = b))) {
    if (item.kind === 'broken') {
      if (summary.conversations === 0 && !item.truncated)
        throw new ImportUnreadableError(label, 'damaged', `it is not valid JSON (${item.reason})`)
      summary.skipped.push({
        position: item.position,
        title: '',
        problem: item.truncated ? 'truncated' : 'damaged',
        reason: item.truncated
          ? `the file ends before conversation ${item.position} does`
          : `the file cannot be read from conversation ${item.position} on (${item.reason})`,
      })
      break
    }
    summary.conversations++
    try {
      const conversation = readConversation(item.value)
      count(summary, conversation.source, target.importConversation(conversation))
    } catch (e) {
      summary.skipped.push(skipOf(item.position, item.value, e))
    }
    progress()
    if (opts.signal?.aborted) {
      summary.cancelled = true
      source.stream.destroy()
      break
    }
    // lets a cancel or a progress message in between two conversations
    await new Promise<void>((r) => setImmediate(r))
  }
  progress(true)
  return summary
}
