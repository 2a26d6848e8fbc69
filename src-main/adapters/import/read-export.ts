/**
 * Reads an export file as a stream of values: the conversations of a `conversations.json`
 * (ChatGPT's or Claude's, a JSON array) one at a time, or the one session of a Cairn JSON
 * export. A `.zip` as the apps send it is read by its `conversations.json` entry, inflated
 * as it is read. Nothing holds more than one conversation at once, so a 1 GB export
 * imports in the memory of its largest conversation.
 */
import { createReadStream } from 'node:fs'
import { open as openFile } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { JSONParser } from '@streamparser/json'
import yauzl from 'yauzl'
import { ImportUnreadableError } from './import-errors'

export interface ExportSource {
  stream: Readable
  /** the bytes the JSON has (inflated, for a zip's entry) */
  totalBytes: number
}

export type ExportItem =
  | { kind: 'value'; position: number; value: unknown }
  /** the JSON stops being readable here: the file ends early, or is damaged from there on */
  | { kind: 'broken'; position: number; truncated: boolean; reason: string }

async function isZip(file: string): Promise<boolean> {
  const handle = await openFile(file, 'r')
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await handle.read(head, 0, 4, 0)
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50
  } finally {
    await handle.close()
  }
}

function zipEntry(file: string, label: string): Promise<ExportSource> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) {
        reject(
          new ImportUnreadableError(
            label,
            'damaged',
            `the zip archive cannot be read (${err?.message ?? 'no archive'})`,
          ),
        )
        return
      }
      zip.on('error', (e: Error) =>
        reject(
          new ImportUnreadableError(
            label,
            'damaged',
            `the zip archive cannot be read (${e.message})`,
          ),
        ),
      )
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.split('/').at(-1)
        if (name !== 'conversations.json' || entry.fileName.startsWith('__MACOSX/')) {
          zip.readEntry()
          return
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) {
            reject(
              new ImportUnreadableError(
                label,
                'damaged',
                `conversations.json in the archive cannot be read (${e?.message ?? 'no data'})`,
              ),
            )
            return
          }
          resolve({ stream, totalBytes: entry.uncompressedSize })
        })
      })
      zip.on('end', () =>
        reject(
          new ImportUnreadableError(
            label,
            'no_conversations',
            'the archive has no conversations.json',
          ),
        ),
      )
      zip.readEntry()
    })
  })
}

/** the file's JSON as a stream: the file itself, or a zip's `conversations.json` */
export async function openExport(file: string, size: number, label = file): Promise<ExportSource> {
  let zip: boolean
  try {
    zip = await isZip(file)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new ImportUnreadableError(
      label,
      code === 'ENOENT' ? 'not_found' : 'damaged',
      code === 'ENOENT' ? 'there is no such file' : `it cannot be read (${(e as Error).message})`,
    )
  }
  if (zip) return zipEntry(file, label)
  return { stream: createReadStream(file, { highWaterMark: 256 * 1024 }), totalBytes: size }
}

/** the first character that is not whitespace (or a byte-order mark), or null */
function firstSignificant(chunk: Buffer): string | null {
  for (const byte of chunk) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue
    if (byte === 0xef || byte === 0xbb || byte === 0xbf) continue
    return String.fromCharCode(byte)
  }
  return null
}

function stripBom(chunk: Buffer): Buffer {
  return chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? chunk.subarray(3) : chunk
}

/** the stream's chunks, then null if it failed instead of ending */
async function* readChunks(stream: Readable): AsyncGenerator<Buffer | null> {
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk
  } catch {
    yield null
  }
}

/**
 * The values of the export, in order: each conversation of an array (position 1, 2, …),
 * or the whole value of an object (a Cairn export), and where the JSON breaks if it does.
 * `onBytes`: the bytes read so far, for progress.
 */
export async function* exportItems(
  file: string,
  source: ExportSource,
  onBytes: (bytes: number) => void = () => {},
): AsyncGenerator<ExportItem> {
  let parser: JSONParser | null = null
  let position = 0
  let bytes = 0
  let broken: string | null = null
  const ready: unknown[] = []
  const chunks = readChunks(source.stream)
  for await (const raw of chunks) {
    if (raw === null) {
      // the stream failed (a zip entry cut short): what was read is kept
      if (parser) parser.onError = () => {}
      while (ready.length > 0) yield { kind: 'value', position: ++position, value: ready.shift() }
      yield {
        kind: 'broken',
        position: position + 1,
        truncated: true,
        reason: 'the archive ends early',
      }
      return
    }
    let chunk = raw
    if (!parser) {
      chunk = stripBom(chunk)
      const first = firstSignificant(chunk)
      if (first === null) continue
      if (first !== '[' && first !== '{') {
        source.stream.destroy()
        throw new ImportUnreadableError(
          file,
          'not_an_export',
          'it is not a JSON export (nor a zip of one)',
        )
      }
      parser = new JSONParser({
        paths: [first === '[' ? '$.*' : '$'],
        keepStack: false,
        separator: '',
      })
      parser.onValue = ({ value, stack }) => {
        if (stack.length <= (first === '[' ? 1 : 0)) ready.push(value)
      }
      parser.onError = (e) => void (broken ??= e.message)
    }
    bytes += raw.length
    parser.write(chunk)
    onBytes(bytes)
    while (ready.length > 0) yield { kind: 'value', position: ++position, value: ready.shift() }
    if (broken !== null) {
      source.stream.destroy()
      yield { kind: 'broken', position: position + 1, truncated: false, reason: broken }
      return
    }
  }
  if (!parser) throw new ImportUnreadableError(file, 'not_an_export', 'it is empty')
  parser.end()
  while (ready.length > 0) yield { kind: 'value', position: ++position, value: ready.shift() }
  if (broken !== null)
    yield { kind: 'broken', position: position + 1, truncated: true, reason: broken }
}
