/**
 * Saves an export through the browser's download: a Blob URL and an `<a download>`. The
 * browser saves one file, so an export with files beside it (a Markdown export's
 * attachments) is downloaded as one ZIP archive (`chat.zip`: `chat.md` and its
 * `chat-attachments/` folder, linked by the same relative paths); one without, as itself.
 */
import { strToU8, zipSync, type Zippable } from 'fflate'

export function downloadExport(
  filename: string,
  mimeType: string,
  content: string,
  files: readonly { path: string; data: string }[] = [],
): Promise<string | null> {
  if (files.length === 0) return downloadText(filename, mimeType, content)
  return downloadBlob(
    zipName(filename),
    // fflate's output is a plain ArrayBuffer's view (never a shared one)
    new Blob([zipExport(filename, content, files) as Uint8Array<ArrayBuffer>], {
      type: 'application/zip',
    }),
  )
}

/** chat.md → chat.zip */
export function zipName(filename: string): string {
  return `${filename.replace(/\.[^.]*$/, '')}.zip`
}

/**
 * The export and its files as a ZIP archive. The files are stored as they are (already
 * compressed images and documents; no time spent deflating them), the text deflated.
 */
export function zipExport(
  filename: string,
  content: string,
  files: readonly { path: string; data: string }[],
): Uint8Array {
  const entries: Zippable = { [filename]: strToU8(content) }
  for (const f of files) entries[f.path] = [base64Bytes(f.data), { level: 0 }]
  return zipSync(entries)
}

function base64Bytes(data: string): Uint8Array {
  const raw = atob(data)
  const out = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

/** Saves text as a file through the browser's download. */
export function downloadText(
  filename: string,
  mimeType: string,
  content: string,
): Promise<string | null> {
  return downloadBlob(filename, new Blob([content], { type: `${mimeType};charset=utf-8` }))
}

function downloadBlob(filename: string, blob: Blob): Promise<string | null> {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.append(a)
  a.click()
  a.remove()
  // the download has its own reference by now; give it a moment before letting go
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
  // the browser chooses where: the page is not told
  return Promise.resolve(null)
}
