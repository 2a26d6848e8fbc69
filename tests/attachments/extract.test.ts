/**
 * The extractors (src-main/adapters/extract/) on real files made by real libraries: a PDF's
 * text and pages (pdf-lib), a PDF without a text layer, an encrypted one, a broken one, a
 * DOCX (docx), text recognised by its content whatever its name, an archive and binary data
 * refused with what they are; and the worker's time limit.
 */
import { describe, expect, it } from 'vitest'
import { fileText, detectFile, extractInWorker } from '../../src-main/adapters/extract'
import {
  brokenPdf,
  docxFile,
  encryptedPdf,
  imageOnlyPdf,
  phonePhoto,
  textPdf,
  zipArchive,
} from '../support/attachment-files'

describe('fileText', () => {
  it("reads a PDF's text layer and counts its pages", async () => {
    const pdf = await textPdf(['Quarterly heron census', 'The second page mentions kingfishers'])
    const r = await fileText(pdf)
    expect(r.detected).toEqual({ kind: 'document', mediaType: 'application/pdf' })
    expect(r.outcome).toMatchObject({ ok: true, pages: 2 })
    const text = r.outcome?.ok ? r.outcome.text : ''
    expect(text).toContain('Quarterly heron census')
    expect(text).toContain('kingfishers')
  }, 30_000)

  it('says a PDF without a text layer has no text', async () => {
    const r = await fileText(await imageOnlyPdf())
    expect(r.outcome).toMatchObject({ ok: true, noText: true, pages: 1, text: '' })
  }, 30_000)

  it('says an encrypted PDF is password-protected', async () => {
    const r = await fileText(await encryptedPdf())
    expect(r.outcome).toMatchObject({ ok: false, problem: 'password_protected' })
    expect(r.outcome && !r.outcome.ok ? r.outcome.message : '').toMatch(/password-protected/)
  }, 30_000)

  it('says a broken PDF is damaged', async () => {
    const r = await fileText(brokenPdf())
    expect(r.outcome).toMatchObject({ ok: false, problem: 'damaged' })
  }, 30_000)

  it("reads a DOCX's paragraphs", async () => {
    const r = await fileText(await docxFile(['Minutes of the lighthouse meeting', 'Paint it red.']))
    expect(r.detected.mediaType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    const text = r.outcome?.ok ? r.outcome.text : ''
    expect(text).toContain('Minutes of the lighthouse meeting')
    expect(text).toContain('Paint it red.')
  }, 30_000)

  it('knows text by its content: Markdown, CSV, JSON, a log', async () => {
    for (const s of ['# Title\n\nsome *words*', 'a,b\n1,2\n', '{"k": [1, 2]}', 'ERROR ünïcödé\n']) {
      const r = await fileText(new TextEncoder().encode(s))
      expect(r.detected).toEqual({ kind: 'document', mediaType: 'text/plain' })
      expect(r.outcome).toMatchObject({ ok: true, text: s })
    }
  }, 60_000)

  it('refuses an archive and binary data, naming what they are', async () => {
    expect(await detectFile(zipArchive())).toMatchObject({
      kind: 'archive',
      label: 'a zip archive',
    })
    const binary = new Uint8Array(4096).map((_, i) => (i * 7919) % 256)
    expect(await detectFile(binary)).toMatchObject({ kind: 'unsupported', label: 'binary data' })
    const r = await fileText(zipArchive())
    expect(r.outcome).toBeNull()
  })

  it('knows an image by its bytes, not its name', async () => {
    expect(await detectFile(await phonePhoto(64, 48))).toEqual({
      kind: 'image',
      mediaType: 'image/jpeg',
    })
    const svg =
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    expect(await detectFile(new TextEncoder().encode(svg))).toEqual({
      kind: 'image',
      mediaType: 'image/svg+xml',
    })
  })
})

describe('the worker', () => {
  it('stops a reading that takes longer than its time limit, and says so', async () => {
    const pages = Array.from({ length: 60 }, (_, i) => `page ${i} ${'word '.repeat(200)}`)
    const pdf = await textPdf(pages)
    const r = await extractInWorker(pdf, 'application/pdf', { timeoutMs: 1 })
    expect(r).toMatchObject({ ok: false, problem: 'too_complex' })
    expect(!r.ok ? r.message : '').toMatch(/longer than/)
  }, 30_000)
})
