/**
 * A PDF with no text layer (a scan) sent as pictures, through the routes of a real host
 * (the real store, pdf.js drawing in the extraction worker, sharp, the real openai SDK
 * against the scripted server): the PDF is said to have no text; `attachments.pdfPages`
 * gives its first five pages as images named after it, each drawn as the page is (blue
 * below left, white above right), at most `imageLongSide` px; sent, the request carries
 * them as image parts. What is not a stored PDF is refused, naming it.
 */
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import type { Result, RouteOutputs } from '../../src-preload/contract/routes'
import type { AppHost } from '../../src-main/services/host/app-host'
import { openChatHost } from '../support/host'
import { textReply, type ScriptedServer } from '../support/openai-server'
import { docxFile, imageOnlyPdf } from '../support/attachment-files'

let host: AppHost
let server: ScriptedServer
let stop: (() => Promise<void>) | null = null

afterEach(async () => {
  await stop?.()
  stop = null
})

async function raw<R extends keyof RouteOutputs>(route: R, input: unknown) {
  return (await host.router.handle(route, input)) as Result<RouteOutputs[R]>
}
async function call<R extends keyof RouteOutputs>(
  route: R,
  input: unknown,
): Promise<RouteOutputs[R]> {
  const r = await raw(route, input)
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.data
}

/** the colour at (x, y) of a picture, as [r, g, b] */
async function colourAt(data: Uint8Array, x: number, y: number): Promise<number[]> {
  const { data: px, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  return [px[at]!, px[at + 1]!, px[at + 2]!]
}

describe('a PDF with no text layer', () => {
  it('is said to have none, and its first five pages go to the model as images', async () => {
    ;({ host, server, stop } = await openChatHost({
      prefix: 'cairn-pdf-pages-',
      hostKind: 'web',
      bridge: false,
      models: ['m'],
    }))
    const scan = await call('attachments.add', { name: 'scan.pdf', data: await imageOnlyPdf(7) })
    expect(scan.part).toMatchObject({ kind: 'document', pages: 7, noText: true, chars: 0 })
    const { pages } = await call('attachments.pdfPages', { id: scan.part.id, name: 'scan.pdf' })
    expect(pages.map((p) => p.part.name)).toEqual([1, 2, 3, 4, 5].map((n) => `scan.pdf, page ${n}`))
    for (const p of pages) {
      expect(p.part).toMatchObject({ kind: 'image', mediaType: 'image/jpeg', height: 2048 })
      expect(p.thumbnail).toMatch(/^data:image\/webp;base64,/)
    }
    const first = await call('attachments.get', { id: pages[0]!.part.id })
    const picture = Buffer.from(first.data, 'base64')
    const { width, height } = await sharp(picture).metadata()
    // A4 drawn upright: blue below left, white above right
    // (the page is drawn on whole pixels, then scaled: a pixel either way)
    expect(Math.abs(width! - (2048 * 595) / 842)).toBeLessThanOrEqual(1.5)
    const [r, g, b] = await colourAt(picture, 20, height! - 20)
    expect(b).toBeGreaterThan(180)
    expect(r).toBeLessThan(80)
    expect(g).toBeGreaterThan(80)
    const white = await colourAt(picture, width! - 20, 20)
    expect(Math.min(...white)).toBeGreaterThan(240)

    server.enqueue(textReply('Five blue blocks.'))
    await call('chat.send', { text: 'What is on these pages?', files: pages.map((p) => p.token) })
    await expect.poll(() => server.requests.length, { timeout: 120_000 }).toBe(1)
    const body = server.requests[0]!.body as {
      messages: { role: string; content: { type: string; text?: string }[] }[]
    }
    const user = body.messages.filter((m) => m.role === 'user').at(-1)!
    expect(user.content.filter((p) => p.type === 'image_url')).toHaveLength(5)
    expect(user.content[0]!.text).toContain('scan.pdf, page 1')
  }, 240_000)

  it('only a stored PDF is drawn: anything else is refused, naming it', async () => {
    ;({ host, server, stop } = await openChatHost({
      prefix: 'cairn-pdf-pages-',
      hostKind: 'web',
      bridge: false,
      models: ['m'],
    }))
    const docx = await call('attachments.add', {
      name: 'notes.docx',
      data: await docxFile(['Not a PDF']),
    })
    const r = await raw('attachments.pdfPages', { id: docx.part.id, name: 'notes.docx' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe('attachment_refused')
    expect(r.error.message).toBe(
      "notes.docx is not a PDF: only a PDF's pages can be sent as images.",
    )
    const gone = await raw('attachments.pdfPages', { id: 'f'.repeat(64), name: 'gone.pdf' })
    expect(gone.ok).toBe(false)
    if (gone.ok) return
    expect(gone.error.code).toBe('attachment_refused')
    expect(gone.error.message).toBe('gone.pdf is no longer held by Cairn: attach the file again.')
  }, 150_000)
})
