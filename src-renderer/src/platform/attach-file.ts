/**
 * A file of the page (dropped, pasted, chosen) handed to the engine, which reads it once
 * and answers what it made of it or why it refuses it. Over the desktop app's IPC (and in
 * tests) the bytes go in the `attachments.add` request; browser mode sends them to its
 * upload address (`POST /upload`, guarded like the WebSocket), which calls the same route.
 */
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { AttachmentTaken, ImportFile, Result } from '../../../src-preload/contract/routes'
import type { ExtensionReview } from '../../../src-preload/contract/mcpb'

function failed(name: string, message: string): Result<AttachmentTaken> {
  return {
    ok: false,
    error: {
      code: 'attachment_refused',
      message: `${name} cannot be read: ${message}`,
      details: { file: name, problem: 'unreadable' },
    },
  }
}

/** the file's bytes (FileReader: every host the window runs in has it) */
function readBytes(file: File): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as ArrayBuffer)
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'))
    reader.readAsArrayBuffer(file)
  })
}

export async function attachOverBridge(
  bridge: CairnBridge,
  file: File,
): Promise<Result<AttachmentTaken>> {
  let data: Uint8Array<ArrayBuffer>
  try {
    data = new Uint8Array(await readBytes(file))
  } catch (e) {
    return failed(file.name, e instanceof Error ? e.message : String(e))
  }
  return bridge.request('attachments.add', { name: file.name || 'file', data })
}

/** an extension bundle's bytes, over the bridge */
export async function openExtensionOverBridge(
  bridge: CairnBridge,
  file: File,
): Promise<Result<ExtensionReview>> {
  let data: Uint8Array<ArrayBuffer>
  try {
    data = new Uint8Array(await readBytes(file))
  } catch (e) {
    return unreadable(file.name, e)
  }
  return bridge.request('mcp.extensionOpen', { name: file.name || 'extension.mcpb', data })
}

function unreadable<T>(name: string, e: unknown): Result<T> {
  const why = e instanceof Error ? e.message : String(e)
  return {
    ok: false,
    error: {
      code: 'bad_request',
      message: `${name} cannot be read: ${why}`,
      details: { fields: { file: why } },
    },
  }
}

/** browser mode: an extension bundle sent to the upload address of extensions */
export async function uploadExtension(file: File): Promise<Result<ExtensionReview>> {
  try {
    const r = await fetch('/upload/extension', {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'x-file-name': encodeURIComponent(file.name || 'extension.mcpb'),
      },
      body: file,
      credentials: 'same-origin',
    })
    return (await r.json()) as Result<ExtensionReview>
  } catch (e) {
    return unreadable(file.name, e)
  }
}

export async function uploadFile(file: File): Promise<Result<AttachmentTaken>> {
  try {
    const r = await fetch('/upload', {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'x-file-name': encodeURIComponent(file.name || 'file'),
      },
      body: file,
      credentials: 'same-origin',
    })
    return (await r.json()) as Result<AttachmentTaken>
  } catch (e) {
    return failed(file.name, e instanceof Error ? e.message : String(e))
  }
}

/** browser mode: an export to import, streamed to `POST /upload-import` (bounded there) */
export async function uploadImportFile(file: File): Promise<Result<ImportFile>> {
  try {
    const r = await fetch('/upload-import', {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'x-file-name': encodeURIComponent(file.name || 'export'),
      },
      body: file,
      credentials: 'same-origin',
    })
    return (await r.json()) as Result<ImportFile>
  } catch (e) {
    return {
      ok: false,
      error: { code: 'unavailable', message: e instanceof Error ? e.message : String(e) },
    }
  }
}
