/**
 * A session exported with its attached files: as JSON, each file embedded (base64) so the
 * file is complete on its own; as Markdown, each file written into a folder beside it
 * (`<name>-attachments/`) and linked by its relative path (the caller writes them).
 */
import type { AttachmentPart } from '../../../src-preload/contract/dto'
import type { ExportFormat } from '../../core/service-ports'
import type { AppServices } from '../host/app-services'

export interface ExportedSession {
  content: string
  /** Markdown: the files to write beside it, by their path relative to it */
  files: { path: string; data: Uint8Array }[]
}

/** the folder of a Markdown export's files: `chat.md` → `chat-attachments` */
export function attachmentsFolder(markdownName: string): string {
  return `${markdownName.replace(/\.md$/i, '')}-attachments`
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png' }

/** a stored file's name in the folder: numbered, the user's name made safe for any system */
function fileName(n: number, p: AttachmentPart): string {
  let base =
    p.name
      .replace(/[^\p{L}\p{N}._ -]/gu, '_')
      .replace(/^[.\s]+/, '')
      .slice(0, 120) || 'file'
  // an image is written as it was sent (re-encoded): its extension says so
  const ext = EXTENSIONS[p.mediaType]
  if (p.kind === 'image' && ext) base = `${base.replace(/\.[^.]*$/, '')}${ext}`
  return `${String(n).padStart(2, '0')}-${base}`
}

export async function exportWithFiles(
  app: AppServices,
  id: string,
  format: ExportFormat,
  /** Markdown: the folder beside the file the links point into; none: files only named */
  folder?: string,
): Promise<ExportedSession> {
  const parts = new Map<string, AttachmentPart>()
  for (const m of app.store.listMessages(id))
    for (const p of m.parts ?? [])
      if (p.type === 'attachment' && !parts.has(p.id)) parts.set(p.id, p)
  const stored = new Map<string, { mediaType: string; data: Uint8Array }>()
  for (const p of parts.values()) {
    const file = await app.attachments.read(p.id)
    if (file) stored.set(p.id, file)
  }
  if (format === 'json') {
    const content = app.store.exportSession(id, 'json', {
      embed: (p) => {
        const file = stored.get(p.id)
        if (!file) return null
        const text = p.kind === 'document' ? app.attachments.text(p.id) : null
        return { mediaType: file.mediaType, data: Buffer.from(file.data).toString('base64'), text }
      },
    })
    return { content, files: [] }
  }
  const paths = new Map<string, string>()
  const files: ExportedSession['files'] = []
  if (folder !== undefined) {
    for (const p of parts.values()) {
      const file = stored.get(p.id)
      if (!file) continue
      const path = `${folder}/${fileName(files.length + 1, p)}`
      paths.set(p.id, path)
      files.push({ path, data: file.data })
    }
  }
  const content = app.store.exportSession(id, 'md', { link: (p) => paths.get(p.id) ?? null })
  return { content, files }
}
