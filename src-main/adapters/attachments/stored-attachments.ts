/**
 * The core's `AttachmentReader` on the stored files: an image as the `data:` URL a request
 * carries (kept in memory for the next requests, within a bound), a document's text from
 * its row.
 */
import type { AttachmentPart } from '../../../src-preload/contract/dto'
import type { AttachmentReader } from '../../core/ports'
import type { AttachmentRecord } from '../sqlite/attachment-rows'
import type { AttachmentFiles } from './attachment-files'

/** characters of image data URLs kept in memory (about 48 MB of images) */
const CACHE_CHARS = 64 * 1024 * 1024

export class StoredAttachments implements AttachmentReader {
  private readonly urls = new Map<string, string>()
  private cached = 0

  constructor(
    private readonly files: AttachmentFiles,
    private readonly rows: { attachment(id: string): AttachmentRecord | null },
  ) {}

  imageDataUrl(part: AttachmentPart): string | null {
    const hit = this.urls.get(part.id)
    if (hit !== undefined) {
      // most recently used last
      this.urls.delete(part.id)
      this.urls.set(part.id, hit)
      return hit
    }
    const data = this.files.readSync(part.id)
    if (data === null) return null
    const url = `data:${part.mediaType};base64,${data.toString('base64')}`
    this.urls.set(part.id, url)
    this.cached += url.length
    for (const [id, old] of this.urls) {
      if (this.cached <= CACHE_CHARS || id === part.id) break
      this.urls.delete(id)
      this.cached -= old.length
    }
    return url
  }

  text(part: AttachmentPart): string | null {
    return this.rows.attachment(part.id)?.text ?? null
  }
}
