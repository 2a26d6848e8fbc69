/**
 * `cairn --attach <file>` as a user runs it: a PDF's text and a photo reach the scripted
 * server (the photo as one image part, upright and without its GPS position), `sessions
 * show --json` lists each attachment with its name, media type, size, sha256 and extracted
 * characters, and `sessions export --out` writes the files beside the Markdown; a damaged
 * PDF is refused naming it, with nothing sent.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCliEnv } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'
import { brokenPdf, hasGps, phonePhoto, textPdf } from '../support/attachment-files'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
let files: string
beforeEach(async () => {
  ;({ server, env, stop } = await startCliEnv({ prefix: 'cairn-cli-attach-', models: ['m'] }))
  files = mkdtempSync(join(tmpdir(), 'cairn-cli-attach-files-'))
})
afterEach(async () => {
  await stop()
  rmSync(files, { recursive: true, force: true })
})

describe('cairn --attach', () => {
  it('sends a PDF and a photo, lists them in sessions show --json and exports them', async () => {
    const pdfBytes = await textPdf(['The osprey nests on the mast'])
    writeFileSync(join(files, 'report.pdf'), pdfBytes)
    writeFileSync(join(files, 'photo.jpg'), await phonePhoto(3000, 2000))
    server.enqueue(textReply('An osprey.'))
    const r = await runCli(
      ['--attach', join(files, 'report.pdf'), '--attach', join(files, 'photo.jpg'), 'What is it?'],
      { env },
    )
    expect(r.stderr).toContain('Attached report.pdf (PDF, 1 page')
    expect(r.code).toBe(0)
    const body = server.requests[0]!.body as {
      messages: { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[]
    }
    const user = body.messages.find((m) => m.role === 'user')!
    expect(user.content[0]!.text).toContain('The osprey nests on the mast')
    const images = user.content.filter((p) => p.type === 'image_url')
    expect(images).toHaveLength(1)
    const jpeg = Buffer.from(images[0]!.image_url!.url.split(',')[1]!, 'base64')
    expect(hasGps(jpeg)).toBe(false)

    const list = await runCli(['sessions', 'list', '--json'], { env })
    const id = (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions[0]!.id
    const show = await runCli(['sessions', 'show', id, '--json'], { env })
    const shown = JSON.parse(show.stdout) as { attachments: Record<string, unknown>[] }
    expect(shown.attachments).toEqual([
      expect.objectContaining({
        name: 'report.pdf',
        mediaType: 'application/pdf',
        size: pdfBytes.byteLength,
        sha256: createHash('sha256').update(pdfBytes).digest('hex'),
        chars: expect.any(Number),
      }),
      expect.objectContaining({ name: 'photo.jpg', mediaType: 'image/jpeg', kind: 'image' }),
    ])
    const out = join(files, 'chat.md')
    const exported = await runCli(['sessions', 'export', id, '--format', 'md', '--out', out], {
      env,
    })
    expect(exported.code).toBe(0)
    expect(readdirSync(join(files, 'chat-attachments')).sort()).toEqual([
      '01-report.pdf',
      '02-photo.jpg',
    ])
    expect(readFileSync(out, 'utf8')).toContain('(<chat-attachments/01-report.pdf>)')
  }, 90_000)

  it('refuses a damaged PDF naming it, and sends nothing', async () => {
    writeFileSync(join(files, 'broken.pdf'), brokenPdf())
    const r = await runCli(['--attach', join(files, 'broken.pdf'), 'Read this'], { env })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/broken\.pdf cannot be attached \(PDF\)/)
    expect(server.requests).toHaveLength(0)
    expect(existsSync(join(files, 'chat.md'))).toBe(false)
  }, 60_000)
})
