/**
 * A PDF with no text layer (a scan), sent as pictures instead: its first pages drawn by
 * pdf.js in the extraction worker, each made ready to send like any attached image
 * (`takeImage`: at most `attachments.imageLongSide` px, stored by its content) and named
 * after the PDF and its page ("scan.pdf, page 1"). Only a stored PDF can be drawn; one
 * that cannot is refused, naming it.
 */
import type { AttachmentPart } from '../../../src-preload/contract/dto'
import { AttachmentRefused } from '../../core/attachments/refusal'
import { pdfPagesInWorker } from '../extract/extract'
import { sha256 } from './attachment-files'
import { cleanFileName, takeImage, type IntakeDeps } from './intake'

/** the pages sent as pictures: the first five */
export const PDF_PAGES_AS_IMAGES = 5

export async function takePdfPages(
  input: { id: string; name: string },
  deps: IntakeDeps & { mediaTypeOf(id: string): string | null },
): Promise<AttachmentPart[]> {
  const name = cleanFileName(input.name)
  const mediaType = deps.mediaTypeOf(input.id)
  if (mediaType !== null && mediaType !== 'application/pdf')
    throw new AttachmentRefused(
      name,
      'unsupported_type',
      `${name} is not a PDF: only a PDF's pages can be sent as images.`,
      mediaType,
    )
  const data = mediaType ? await deps.files.read(input.id) : null
  if (!data)
    throw new AttachmentRefused(
      name,
      'expired',
      `${name} is no longer held by Cairn: attach the file again.`,
    )
  const drawn = await pdfPagesInWorker(
    new Uint8Array(data),
    { maxPages: PDF_PAGES_AS_IMAGES, longSide: deps.settings.imageLongSide },
    deps.extract,
  )
  if (!drawn.ok)
    throw new AttachmentRefused(
      name,
      drawn.problem,
      `${name}'s pages cannot be sent as images: ${drawn.message}.`,
      'application/pdf',
    )
  const parts: AttachmentPart[] = []
  for (const [i, png] of drawn.images.entries()) {
    const source = { mediaType: 'image/png', bytes: png.byteLength, sha256: sha256(png) }
    parts.push(await takeImage(`${name}, page ${i + 1}`, png, source, deps))
  }
  return parts
}
