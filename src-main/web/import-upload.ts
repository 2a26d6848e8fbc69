/**
 * Browser mode's address for an export to import, `POST /upload-import`: the file's bytes
 * as the body (`application/octet-stream`), its name in `x-file-name` (URI-encoded). Guarded
 * like `/upload` (this machine's host name, the page's own origin, its session cookie). The
 * body is streamed into a private temporary file, never held in memory, up to
 * `MAX_IMPORT_BYTES` (then refused at once); the page gets the file's id for `imports.start`,
 * and the copy is removed once imported (or when the offer expires).
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import type { ImportFile } from '../../src-preload/contract/routes'
import type { Gate } from './auth'

/** the largest export read: ChatGPT's and Claude's exports of years of use stay below it */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024 * 1024

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  res.end(JSON.stringify(body))
}

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  answer(res, status, { ok: false, error: { code, message } })
}

class TooLarge extends Error {}

export async function serveImportUpload(
  gate: Gate,
  offer: (file: string, name: string) => Promise<ImportFile>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!gate.originAllowed(req))
    return refuse(res, 403, 'forbidden', 'This page is not Cairn’s own.')
  if (!gate.hasSession(req))
    return refuse(res, 401, 'forbidden', 'This browser has no Cairn session.')
  if (req.headers['content-type'] !== 'application/octet-stream')
    return refuse(
      res,
      415,
      'forbidden',
      'An upload is the file’s bytes, as application/octet-stream.',
    )
  let name: string
  try {
    name = decodeURIComponent(String(req.headers['x-file-name'] ?? '')).replace(/[/\\]/g, '_')
  } catch {
    name = ''
  }
  if (!name) return refuse(res, 400, 'bad_request', 'An upload names its file in x-file-name.')
  const tooLarge = `${name} is larger than any export Cairn imports (${MAX_IMPORT_BYTES / 1024 ** 3} GB).`
  if (Number(req.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) {
    refuse(res, 413, 'bad_request', tooLarge)
    return void req.destroy()
  }
  const dir = await mkdtemp(join(tmpdir(), 'cairn-import-'))
  const file = join(dir, `${randomUUID()}.upload`)
  let size = 0
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length
      done(size > MAX_IMPORT_BYTES ? new TooLarge() : null, chunk)
    },
  })
  try {
    await pipeline(req, limit, createWriteStream(file, { mode: 0o600 }))
  } catch (e) {
    await rm(dir, { recursive: true, force: true })
    if (e instanceof TooLarge) {
      refuse(res, 413, 'bad_request', tooLarge)
      return void req.destroy()
    }
    throw e
  }
  answer(res, 200, { ok: true, data: await offer(file, name) })
}
