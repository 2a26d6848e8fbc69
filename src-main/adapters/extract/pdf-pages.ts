/**
 * The first pages of a PDF drawn as pictures (pdf.js onto @napi-rs/canvas, PNG), for a PDF
 * with no text layer (a scan) that the user asks to send as images to a model that sees.
 * Runs in the extraction worker (`worker.ts`), like the text: a hostile file costs that
 * worker. Each page is drawn so that its long side is about `longSide` pixels.
 */
import { messageOf } from './extract-text'

export type PdfPages =
  | { ok: true; images: Uint8Array[]; pages: number }
  | { ok: false; problem: 'password_protected' | 'damaged'; message: string }

/** pages drawn at most (the first ones) */
export const MAX_PDF_PAGES = 10

export async function pdfPages(
  bytes: Uint8Array,
  maxPages: number,
  longSide: number,
): Promise<PdfPages> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>
  try {
    doc = await pdfjs.getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise
  } catch (e) {
    if ((e as { name?: string }).name === 'PasswordException')
      return { ok: false, problem: 'password_protected', message: 'it is password-protected' }
    return { ok: false, problem: 'damaged', message: `it is not a readable PDF (${messageOf(e)})` }
  }
  try {
    const images: Uint8Array[] = []
    const count = Math.min(doc.numPages, Math.max(1, Math.min(maxPages, MAX_PDF_PAGES)))
    for (let i = 1; i <= count; i++) {
      const page = await doc.getPage(i)
      const natural = page.getViewport({ scale: 1 })
      const scale = Math.min(4, longSide / Math.max(natural.width, natural.height))
      const viewport = page.getViewport({ scale })
      const { canvas, context } = (doc.canvasFactory as CanvasFactory).create(
        Math.ceil(viewport.width),
        Math.ceil(viewport.height),
      )
      type Context = Parameters<typeof page.render>[0]['canvasContext']
      await page.render({ canvasContext: context as Context, viewport }).promise
      images.push(new Uint8Array(canvas.toBuffer('image/png')))
      page.cleanup()
    }
    return { ok: true, images, pages: doc.numPages }
  } catch (e) {
    return { ok: false, problem: 'damaged', message: `its pages cannot be drawn (${messageOf(e)})` }
  } finally {
    await doc.destroy()
  }
}

/** pdf.js's canvas factory in Node: canvases of @napi-rs/canvas */
interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): { canvas: { toBuffer(type: 'image/png'): Buffer }; context: unknown }
}
