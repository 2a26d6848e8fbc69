/**
 * `cairn sessions import <file>`: reads a ChatGPT or Claude data export (conversations.json
 * or the .zip) or a Cairn JSON export in a worker thread, with a counter on stderr, and
 * prints what it did. Ctrl-C stops it between two conversations (what was imported stays).
 */
import path from 'node:path'
import type { ImportProgress, ImportSummary } from '../../src-preload/contract/dto'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'
import { jsonLine, writeOwn } from './terminal-text'

function percent(p: ImportProgress): string {
  return p.totalBytes > 0 ? ` (${Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100))}%)` : ''
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** the summary for a person; titles come from the file, the stream's guard makes them inert */
export function summaryLines(s: ImportSummary): string[] {
  const lines = [
    `${s.cancelled ? 'Stopped' : 'Imported'}: ${plural(s.created, 'new chat')}, ${plural(s.updated, 'chat')} with new messages, ${plural(s.messages, 'message')} added; ${plural(s.unchanged, 'conversation')} already here.`,
  ]
  for (const k of s.skipped) {
    const title = k.title ? ` "${k.title.replace(/\s+/g, ' ').slice(0, 80)}"` : ''
    lines.push(`Skipped conversation ${k.position}${title}: ${k.reason}.`)
  }
  if (s.cancelled)
    lines.push('Import it again to bring the rest: what is here already is not added twice.')
  return lines
}

export async function importCommand(
  app: AppServices,
  file: string | undefined,
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  if (!file)
    throw new UsageError(
      'cairn sessions import needs a file (conversations.json, the .zip, or a Cairn JSON export)',
    )
  const target = path.resolve(file)
  const abort = new AbortController()
  const onSigint = (): void => abort.abort()
  process.once('SIGINT', onSigint)
  const tty = streams.stderr.isTTY === true
  let lastLine = 0
  const onProgress = (p: ImportProgress): void => {
    const text = `Reading: ${plural(p.conversations, 'conversation')}${percent(p)}`
    if (tty) writeOwn(streams.stderr, `\r${text}`)
    else if (Date.now() - lastLine >= 1000) {
      lastLine = Date.now()
      streams.stderr.write(`${text}\n`)
    }
  }
  let summary: ImportSummary
  try {
    summary = await app.imports.importFile(target, { onProgress, signal: abort.signal })
  } finally {
    process.off('SIGINT', onSigint)
    if (tty) writeOwn(streams.stderr, '\r\x1b[K')
  }
  if (options.json) streams.stdout.write(`${jsonLine({ summary })}\n`)
  else for (const line of summaryLines(summary)) streams.stdout.write(`${line}\n`)
  return summary.cancelled ? 130 : 0
}
