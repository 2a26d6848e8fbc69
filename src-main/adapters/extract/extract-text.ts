/**
 * A document's text: PDF (pdf.js), DOCX (mammoth), PPTX, XLSX and the OpenDocument formats
 * (officeparser), plain text. Runs in the extraction worker (`worker.ts`): a hostile or
 * broken file costs that worker, never Cairn. Reusable: whatever needs a file's text (the
 * attachments, an index of files) calls `extractInWorker` with the file's media type from
 * `detect.ts`.
 */
import { decodeText } from './detect'

export type ExtractProblem = 'password_protected' | 'damaged' | 'unsupported_type'

export type Extracted =
  | {
      ok: true
      text: string
      /** PDF pages; absent for formats without pages */
      pages?: number
      /** where each PDF page starts in `text` (an index of files cites pages) */
      pageStarts?: number[]
      /** nothing to extract (a scanned PDF) */
      noText?: boolean
    }
  | { ok: false; problem: ExtractProblem; message: string }

export async function extractText(bytes: Uint8Array, mediaType: string): Promise<Extracted> {
  switch (mediaType) {
    case 'application/pdf':
      return extractPdf(bytes)
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return extractDocx(bytes)
    case 'text/plain': {
      const text = decodeText(bytes)
      return text === null
        ? { ok: false, problem: 'damaged', message: 'it is not text after all' }
        : { ok: true, text: text.replace(/^\uFEFF/, '') }
    }
    default:
      return extractOffice(bytes)
  }
}

async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>
  try {
    doc = await pdfjs.getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise
  } catch (e) {
    const name = (e as { name?: string }).name
    if (name === 'PasswordException')
      return { ok: false, problem: 'password_protected', message: 'it is password-protected' }
    return { ok: false, problem: 'damaged', message: `it is not a readable PDF (${messageOf(e)})` }
  }
  try {
    const pages: string[] = []
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i)
      const content = await page.getTextContent()
      let text = ''
      for (const item of content.items) {
        if (!('str' in item)) continue
        text += item.str
        if (item.hasEOL) text += '\n'
        else if (item.str !== '' && !text.endsWith(' ')) text += ' '
      }
      pages.push(text.trim())
      page.cleanup()
    }
    const text = pages.join('\n\n')
    const pageStarts: number[] = []
    pages.reduce((at, page) => (pageStarts.push(at), at + page.length + 2), 0)
    return text.trim() === ''
      ? { ok: true, text: '', pages: doc.numPages, noText: true }
      : { ok: true, text, pages: doc.numPages, pageStarts }
  } catch (e) {
    return { ok: false, problem: 'damaged', message: `its pages cannot be read (${messageOf(e)})` }
  } finally {
    await doc.destroy()
  }
}

async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  const mammoth = await import('mammoth')
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) })
    return withText(value.replace(/\n{3,}/g, '\n\n').trim())
  } catch (e) {
    return { ok: false, problem: 'damaged', message: `it is not a readable DOCX (${messageOf(e)})` }
  }
}

async function extractOffice(bytes: Uint8Array): Promise<Extracted> {
  const { parseOfficeAsync } = (await import('officeparser')).default
  try {
    const text = await parseOfficeAsync(Buffer.from(bytes), { outputErrorToConsole: false })
    return withText(text.trim())
  } catch (e) {
    return { ok: false, problem: 'damaged', message: `it cannot be read (${messageOf(e)})` }
  }
}

function withText(text: string): Extracted {
  return text === '' ? { ok: true, text: '', noText: true } : { ok: true, text }
}

/** an error's message, at most 200 characters */
export function messageOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
