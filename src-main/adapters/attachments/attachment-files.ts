/**
 * The attached files in `<dataDir>/attachments/`, each named by the sha256 of its content
 * (so a file attached twice is stored once), private to the user (folder 700, files 600).
 * The store (`attachment-rows.ts`) decides when one is no longer used.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../atomic-file'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../data-dir'
import type { AttachmentFileSet } from '../sqlite/attachment-rows'

const ID = /^[0-9a-f]{64}$/

export const ATTACHMENTS_DIR = 'attachments'

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

export class AttachmentFiles implements AttachmentFileSet {
  constructor(readonly dir: string) {}

  static in(dataDir: string): AttachmentFiles {
    return new AttachmentFiles(path.join(dataDir, ATTACHMENTS_DIR))
  }

  /** the file's path; throws on anything but a sha256, so no name can leave the folder */
  path(id: string): string {
    if (!ID.test(id)) throw new Error(`Not an attachment id: ${JSON.stringify(id.slice(0, 80))}`)
    return path.join(this.dir, id)
  }

  /** Stores `data` under its id (written atomically; kept as it is when already there). */
  async write(id: string, data: Uint8Array): Promise<void> {
    const target = this.path(id)
    await fs.promises.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE })
    const stat = await fs.promises.stat(target).catch(() => null)
    if (stat?.size === data.byteLength) return
    await writeFileAtomic(target, data, { mode: PRIVATE_FILE_MODE })
  }

  /** the stored bytes, or null when the file is not there */
  readSync(id: string): Buffer | null {
    try {
      return fs.readFileSync(this.path(id))
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw e
    }
  }

  async read(id: string): Promise<Buffer | null> {
    try {
      return await fs.promises.readFile(this.path(id))
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw e
    }
  }

  remove(id: string): void {
    fs.rmSync(this.path(id), { force: true })
  }
}
