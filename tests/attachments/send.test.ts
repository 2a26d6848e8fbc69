/**
 * Files attached in the window, through the routes of a real host (the real store, the
 * real openai SDK against the scripted server): a photo reaches the model as one image part
 * (upright, ≤ 2048 px, no GPS); a PDF's and a DOCX's text are in the request and search finds
 * a word of the PDF; a blind model is refused before anything is saved; a corrupt PDF and a
 * 60 MB file are refused naming the file; a Markdown export carries the files; deleting the
 * last chat that uses a file removes it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import type { AttachmentTaken, Result, RouteOutputs } from '../../src-preload/contract/routes'
import type { StoredMessage } from '../../src-preload/contract/dto'
import type { AppHost } from '../../src-main/services/host/app-host'
import { openChatHost, type ChatHostOptions } from '../support/host'
import { textReply, type ScriptedServer } from '../support/openai-server'
import {
  bigText,
  brokenPdf,
  docxFile,
  hasGps,
  phonePhoto,
  textPdf,
} from '../support/attachment-files'

let host: AppHost
let server: ScriptedServer
let dir: string
let stop: (() => Promise<void>) | null = null

async function open(extra: Partial<ChatHostOptions> = {}): Promise<void> {
  ;({ host, server, stop, dir } = await openChatHost({
    prefix: 'cairn-attach-send-',
    hostKind: 'web',
    bridge: false,
    models: ['m'],
    ...extra,
  }))
}
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

const add = (name: string, data: Uint8Array): Promise<AttachmentTaken> =>
  call('attachments.add', { name, data })

async function answered(sessionId: string): Promise<StoredMessage[]> {
  for (;;) {
    const s = await call('sessions.get', { id: sessionId })
    if (s.messages.some((m) => m.role === 'assistant')) return s.messages
    await new Promise((r) => setTimeout(r, 50))
  }
}

type WirePart = { type: string; text?: string; image_url?: { url: string } }
function lastUserContent(): WirePart[] {
  const body = server.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] }
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!
  return typeof user.content === 'string'
    ? [{ type: 'text', text: user.content }]
    : (user.content as WirePart[])
}

const attachmentFiles = (): string[] => {
  const folder = join(dir, 'data', 'attachments')
  return existsSync(folder) ? readdirSync(folder).filter((f) => /^[0-9a-f]{64}$/.test(f)) : []
}

describe('attached files', () => {
  it('a photo reaches the model as one image part: upright, at most 2048 px, no GPS', async () => {
    await open()
    const photo = await add('IMG_0001.jpg', await phonePhoto(4000, 3000))
    expect(photo.part).toMatchObject({
      kind: 'image',
      mediaType: 'image/jpeg',
      width: 1536,
      height: 2048,
    })
    expect(photo.thumbnail).toMatch(/^data:image\/webp;base64,/)
    server.enqueue(textReply('A plain orange picture.'))
    const { sessionId } = await call('chat.send', { text: 'What is this?', files: [photo.token] })
    await answered(sessionId)
    const parts = lastUserContent()
    const images = parts.filter((p) => p.type === 'image_url')
    expect(images).toHaveLength(1)
    const url = images[0]!.image_url!.url
    expect(url).toMatch(/^data:image\/jpeg;base64,/)
    const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')
    expect(hasGps(bytes)).toBe(false)
    const meta = await sharp(bytes).metadata()
    expect(Math.max(meta.width!, meta.height!)).toBe(2048)
    expect(parts[0]!.text).toContain('What is this?')
    expect(parts[0]!.text).toContain('IMG_0001.jpg')
    // stored once, private to the user
    expect(attachmentFiles()).toEqual([photo.part.id])
  }, 150_000)

  it("a PDF's and a DOCX's text are in the request, and search finds a word of the PDF", async () => {
    await open()
    const pdf = await add(
      'report.pdf',
      await textPdf(['The cormorant population doubled', 'page two']),
    )
    const docx = await add('notes.docx', await docxFile(['Lighthouse keepers agree']))
    expect(pdf.part).toMatchObject({ kind: 'document', pages: 2, mediaType: 'application/pdf' })
    expect(docx.part.chars).toBeGreaterThan(10)
    server.enqueue(textReply('Read them.'))
    const { sessionId } = await call('chat.send', { text: '', files: [pdf.token, docx.token] })
    const messages = await answered(sessionId)
    const text = lastUserContent()
      .map((p) => p.text ?? '')
      .join('\n')
    expect(text).toContain('[Attached file: report.pdf')
    expect(text).toContain('The cormorant population doubled')
    expect(text).toContain('Lighthouse keepers agree')
    expect(messages.find((m) => m.role === 'user')?.parts).toHaveLength(2)
    const { hits } = await call('sessions.search', { query: 'cormorant' })
    expect(hits.map((h) => h.sessionId)).toContain(sessionId)
  }, 150_000)

  it('an image for a model known to be blind is refused before anything is saved', async () => {
    await open({
      models: ['llama3.2'],
      bridge: true,
      provider: { name: 'Scripted', defaultModel: 'llama3.2', imageInput: false },
    })
    const photo = await add('cat.jpg', await phonePhoto(64, 48))
    const r = await raw('chat.send', { text: 'What is this?', files: [photo.token] })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe('model_cannot_see')
    expect(r.error.message).toMatch(
      /llama3\.2 cannot see images: pick a vision model or remove the image \(cat\.jpg\)/,
    )
    expect(server.requests).toHaveLength(0)
    expect((await call('sessions.list', {})).sessions).toHaveLength(0)
    // the token still holds the file: removing the image and sending works
    server.enqueue(textReply('Hello.'))
    const ok = await call('chat.send', { text: 'Hello' })
    await answered(ok.sessionId)
  }, 150_000)

  it('a corrupt PDF and a 60 MB file are refused, naming the file, and Cairn stays responsive', async () => {
    await open()
    const broken = await raw('attachments.add', { name: 'broken.pdf', data: brokenPdf() })
    expect(broken.ok).toBe(false)
    if (!broken.ok) {
      expect(broken.error.code).toBe('attachment_refused')
      expect(broken.error.details).toMatchObject({ file: 'broken.pdf', problem: 'damaged' })
      expect(broken.error.message).toMatch(/^broken\.pdf cannot be attached/)
    }
    const big = await raw('attachments.add', {
      name: 'server.log',
      data: bigText(60 * 1024 * 1024),
    })
    expect(big.ok).toBe(false)
    if (!big.ok) {
      expect(big.error.details).toMatchObject({ file: 'server.log', problem: 'too_large' })
      expect(big.error.message).toMatch(/server\.log is 60 MB: a document may be at most 50 MB/)
    }
    expect((await call('sessions.list', {})).sessions).toEqual([])
  }, 150_000)

  it('exports Markdown with its files beside it, JSON with them embedded', async () => {
    await open()
    const photo = await add('photo.jpg', await phonePhoto(640, 480))
    const notes = await add('notes.md', new TextEncoder().encode('# Export me\n'))
    server.enqueue(textReply('Fine.'))
    const { sessionId } = await call('chat.send', {
      text: 'Keep these',
      files: [photo.token, notes.token],
    })
    await answered(sessionId)
    const md = await call('sessions.export', { id: sessionId, format: 'md' })
    expect(md.files.map((f) => f.path)).toEqual([
      expect.stringMatching(/-attachments\/01-photo\.jpg$/),
      expect.stringMatching(/-attachments\/02-notes\.md$/),
    ])
    expect(md.content).toContain(`![photo.jpg](<${md.files[0]!.path}>)`)
    expect(md.content).toContain(`[notes.md](<${md.files[1]!.path}>)`)
    expect(Buffer.from(md.files[1]!.data, 'base64').toString()).toBe('# Export me\n')
    const json = await call('sessions.export', { id: sessionId, format: 'json' })
    expect(json.files).toEqual([])
    expect(json.content).toContain(
      readFileSync(join(dir, 'data', 'attachments', photo.part.id)).toString('base64'),
    )
  }, 150_000)

  it('deleting the last chat that uses a file removes it; another chat keeps a shared one', async () => {
    await open()
    const bytes = new TextEncoder().encode('shared file\n')
    const first = await add('a.txt', bytes)
    server.enqueue(textReply('One.'))
    const one = await call('chat.send', { text: 'one', files: [first.token] })
    await answered(one.sessionId)
    const second = await add('a-again.txt', bytes)
    expect(second.part.id).toBe(first.part.id)
    server.enqueue(textReply('Two.'))
    const two = await call('chat.send', { text: 'two', files: [second.token] })
    await answered(two.sessionId)
    expect(attachmentFiles()).toEqual([first.part.id])
    await call('sessions.delete', { id: one.sessionId })
    expect(attachmentFiles()).toEqual([first.part.id])
    await call('sessions.delete', { id: two.sessionId })
    expect(attachmentFiles()).toEqual([])
  }, 150_000)
})
