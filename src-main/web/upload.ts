/**
 * Browser mode's upload addresses: `POST /upload`, a file attached in the page, and
 * `POST /upload/extension`, an extension bundle (`.mcpb`) to open for review; its bytes as
 * the body (`application/octet-stream`) and its name in `x-file-name` (URI-encoded). Guarded
 * like the WebSocket: this machine's host name, the page's own origin, its session cookie;
 * its content type and header make a cross-site request need a preflight, which is never
 * granted. The body is read up to `MAX_UPLOAD_BYTES` (then refused at once); the file is
 * then taken by the `attachments.add` route, which applies the settings' limits (or by
 * `mcp.extensionOpen`, which has its own).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Gate } from './auth'

/** the largest body read: the largest file the settings can allow (500 MB), and a little */
export const MAX_UPLOAD_BYTES = 501 * 1024 * 1024

type Handle = (route: string, input: unknown) => Promise<unknown>

/** each upload address and the route that takes its file */
export const UPLOADS: Readonly<Record<string, 'attachments.add' | 'mcp.extensionOpen'>> = {
  '/upload': 'attachments.add',
  '/upload/extension': 'mcp.extensionOpen',
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  res.end(JSON.stringify(body))
}

function refuse(res: ServerResponse, status: number, message: string): void {
  answer(res, status, { ok: false, error: { code: 'forbidden', message } })
}

export async function serveUpload(
  gate: Gate,
  handle: Handle,
  req: IncomingMessage,
  res: ServerResponse,
  route: 'attachments.add' | 'mcp.extensionOpen' = 'attachments.add',
): Promise<void> {
  if (!gate.originAllowed(req)) return refuse(res, 403, 'This page is not Cairn’s own.')
  if (!gate.hasSession(req)) return refuse(res, 401, 'This browser has no Cairn session.')
  if (req.headers['content-type'] !== 'application/octet-stream')
    return refuse(res, 415, 'An upload is the file’s bytes, as application/octet-stream.')
  let name: string
  try {
    name = decodeURIComponent(String(req.headers['x-file-name'] ?? ''))
  } catch {
    name = ''
  }
  if (!name) return refuse(res, 400, 'An upload names its file in x-file-name.')
  const declared = Number(req.headers['content-length'] ?? NaN)
  if (declared > MAX_UPLOAD_BYTES) {
    answer(res, 413, tooLarge(name))
    return void req.destroy()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_UPLOAD_BYTES) {
      answer(res, 413, tooLarge(name))
      return void req.destroy()
    }
    chunks.push(chunk)
  }
  const data = Buffer.concat(chunks, size)
  const result = await handle(route, {
    name,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  })
  answer(res, 200, result)
}

function tooLarge(name: string): unknown {
  return {
    ok: false,
    error: {
      code: 'attachment_refused',
      message: `${name} is larger than any file Cairn attaches (${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)} MB).`,
      details: { file: name, problem: 'too_large' },
    },
  }
}
