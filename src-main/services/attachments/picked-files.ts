/**
 * Files chosen in the desktop app's open dialog: the page gets a pick id, a name and a size
 * for each, never a path it could name itself, and then has each read (`attachments.addPicked`),
 * so every chip shows its own progress.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { AttachedFile } from '../../core/service-ports'
import { AttachmentRefused } from '../../core/attachments/refusal'
import { formatBytes } from '../../core/attachments/describe'

const PICK_MS = 10 * 60_000

export class PickedFiles {
  private readonly picked = new Map<string, { path: string; until: number }>()

  add(paths: readonly string[]): { pickId: string; name: string; bytes: number }[] {
    const now = Date.now()
    for (const [id, p] of this.picked) if (p.until < now) this.picked.delete(id)
    return paths.map((file) => {
      const pickId = randomUUID()
      this.picked.set(pickId, { path: file, until: now + PICK_MS })
      let bytes = 0
      try {
        bytes = fs.statSync(file).size
      } catch {
        // said when it is read
      }
      return { pickId, name: path.basename(file), bytes }
    })
  }

  /** the chosen file, read once (none larger than `maxBytes` is read at all) */
  async read(pickId: string, maxBytes: number): Promise<AttachedFile> {
    const picked = this.picked.get(pickId)
    if (!picked)
      throw new AttachmentRefused(
        'the file',
        'expired',
        'That file was chosen too long ago: choose it again.',
      )
    this.picked.delete(pickId)
    const name = path.basename(picked.path)
    let size: number
    try {
      size = (await fs.promises.stat(picked.path)).size
    } catch (e) {
      throw new AttachmentRefused(
        name,
        'unreadable',
        `${name} cannot be read: ${(e as Error).message}.`,
      )
    }
    if (size > maxBytes)
      throw new AttachmentRefused(
        name,
        'too_large',
        `${name} is ${formatBytes(size)}: no file larger than ${formatBytes(maxBytes)} can be attached (the settings attachments.maxImageMB and maxDocumentMB).`,
      )
    try {
      return { name, bytes: new Uint8Array(await fs.promises.readFile(picked.path)) }
    } catch (e) {
      throw new AttachmentRefused(
        name,
        'unreadable',
        `${name} cannot be read: ${(e as Error).message}.`,
      )
    }
  }
}
