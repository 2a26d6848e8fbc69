/**
 * The knowledge index on real files (a PDF and a DOCX made by pdf-lib and docx, Markdown,
 * code, binary data, a link loop), indexed by its worker thread into a real `knowledge.db`:
 * each file's status, search with file and place, what changed while it was closed, the
 * watcher, a file deleted, a full disk (SQLite's own SQLITE_FULL, from a page cap).
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KnowledgeIndex } from '../../src-main/adapters/knowledge/knowledge-index'
import { docxFile, textPdf } from '../support/attachment-files'

const owner = { kind: 'project' as const, id: 'p-docs' }
let root: string
let docs: string
let data: string
let kb: KnowledgeIndex | null = null

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-knowledge-'))
  docs = join(root, 'docs')
  data = join(root, 'data')
  mkdirSync(join(docs, 'src'), { recursive: true })
})
afterEach(async () => {
  await kb?.close()
  kb = null
  rmSync(root, { recursive: true, force: true })
})

function open(o: { sizeLimit?: number; maxPageCount?: number } = {}): KnowledgeIndex {
  kb = new KnowledgeIndex({
    dataDir: data,
    sizeLimit: () => o.sizeLimit ?? 10 * 1024 * 1024,
    ...(o.maxPageCount !== undefined ? { maxPageCount: o.maxPageCount } : {}),
  })
  return kb
}

async function writeDocs(): Promise<void> {
  writeFileSync(
    join(docs, 'policy.md'),
    '# Refunds\n\nDamaged goods are refunded within 30 days.\n\n## Shipping\n\nParcels travel by osprey.\n',
  )
  writeFileSync(join(docs, 'src', 'tide.ts'), 'export function tideTable() {\n  return "moon"\n}\n')
  writeFileSync(
    join(docs, 'manual.pdf'),
    await textPdf([
      'Welcome to the manual.',
      'The lighthouse keeper winds the clock every Sunday.',
    ]),
  )
  writeFileSync(
    join(docs, 'minutes.docx'),
    await docxFile(['The committee approved the heron sanctuary.']),
  )
  writeFileSync(join(docs, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]))
  writeFileSync(join(docs, 'big.txt'), 'word '.repeat(5000))
  symlinkSync(docs, join(docs, 'src', 'back'))
}

// documents are read in workers started through tsx here: slow on a busy machine
describe('KnowledgeIndex', { timeout: 120_000 }, () => {
  it('indexes a folder of real files and says why each other file was skipped', async () => {
    await writeDocs()
    const k = open({ sizeLimit: 20_000 })
    const source = await k.addSource(owner, docs)
    await k.whenIdle()
    const files = Object.fromEntries(
      k.files(source.id).map((f) => [f.path.slice(docs.length + 1), f]),
    )
    expect(files['policy.md']).toMatchObject({ state: 'indexed', chunks: 2 })
    expect(files['src/tide.ts']).toMatchObject({ state: 'indexed', chunks: 1 })
    expect(files['manual.pdf']).toMatchObject({ state: 'indexed', chunks: 2 })
    expect(files['minutes.docx']).toMatchObject({ state: 'indexed', chunks: 1 })
    expect(files['blob.bin']!.state).toBe('skipped')
    expect(files['blob.bin']!.reason).toContain('binary data')
    expect(files['big.txt']!.state).toBe('skipped')
    expect(files['big.txt']!.reason).toContain('larger than the size limit')
    expect(files['src/back']!.reason).toContain('not followed')
    expect(k.sources(owner)[0]).toMatchObject({
      counts: { indexed: 4, skipped: 3, failed: 0 },
      chunks: 6,
    })
  })

  it('finds chunks with their file and place: a PDF page, Markdown lines under a heading', async () => {
    await writeDocs()
    const k = open()
    await k.addSource(owner, docs)
    await k.whenIdle()
    const pdf = await k.search(owner, 'who winds the lighthouse clock?')
    expect(pdf.mode).toBe('bm25')
    expect(pdf.hits[0]).toMatchObject({ file: join(docs, 'manual.pdf'), location: { page: 2 } })
    expect(pdf.hits[0]!.text).toContain('lighthouse keeper')
    const md = await k.search(owner, 'refund damaged')
    expect(md.hits[0]).toMatchObject({
      file: join(docs, 'policy.md'),
      location: { startLine: 1, endLine: 3 },
      heading: 'Refunds',
    })
    // another project's sources are not searched
    expect((await k.search({ kind: 'project', id: 'other' }, 'lighthouse')).hits).toEqual([])
    // the query is words, never FTS5 syntax
    expect((await k.search(owner, 'NEAR( "lighthouse* OR')).hits[0]!.file).toBe(
      join(docs, 'manual.pdf'),
    )
  })

  it('finds text in scripts without spaces by substring', async () => {
    writeFileSync(join(docs, 'ja.txt'), '東京都に住んでいます。\n\n灯台守は日曜日に時計を巻く。\n')
    const k = open()
    await k.addSource(owner, docs)
    await k.whenIdle()
    expect((await k.search(owner, '灯台守')).hits[0]!.text).toContain(
      '灯台守は日曜日に時計を巻く。',
    )
    expect((await k.search(owner, '東京')).hits[0]!.text).toContain('東京都に住んでいます。')
    expect((await k.search(owner, '大阪')).hits).toEqual([])
  })

  it('finds at start what changed while it was closed: edited, added and deleted files', async () => {
    await writeDocs()
    let k = open()
    const source = await k.addSource(owner, docs)
    await k.whenIdle()
    await k.close()
    appendFileSync(join(docs, 'policy.md'), '\n## Returns\n\nReturns go to the cormorant desk.\n')
    writeFileSync(join(docs, 'new.md'), 'The pelican audit is due.\n')
    unlinkSync(join(docs, 'src', 'tide.ts'))
    k = open()
    k.start()
    await k.whenIdle()
    expect((await k.search(owner, 'cormorant')).hits[0]!.file).toBe(join(docs, 'policy.md'))
    expect((await k.search(owner, 'pelican')).hits[0]!.file).toBe(join(docs, 'new.md'))
    expect((await k.search(owner, 'tideTable')).hits).toEqual([])
    expect(k.files(source.id).some((f) => f.path.endsWith('tide.ts'))).toBe(false)
  })

  it('follows changes while it runs (the watcher)', async () => {
    writeFileSync(join(docs, 'notes.md'), 'The kestrel hovers.\n')
    const k = open()
    await k.addSource(owner, docs)
    k.start()
    await k.whenIdle()
    writeFileSync(join(docs, 'notes.md'), 'The kestrel hovers over the albatross.\n')
    await expect
      .poll(async () => (await k.search(owner, 'albatross')).hits.length, { timeout: 15_000 })
      .toBe(1)
    unlinkSync(join(docs, 'notes.md'))
    await expect
      .poll(async () => (await k.search(owner, 'kestrel')).hits.length, { timeout: 15_000 })
      .toBe(0)
  })

  it('says a full disk and keeps the index consistent', async () => {
    for (let i = 0; i < 40; i++)
      writeFileSync(join(docs, `f${i}.txt`), `file ${i} ${'lorem ipsum dolor '.repeat(2000)}\n`)
    const k = open({ maxPageCount: 60 })
    await k.addSource(owner, docs)
    await expect(k.whenIdle()).rejects.toThrow(/disk is full/)
    await k.close()
    kb = null
    // every file row that says indexed has exactly its chunks, and every chunk is in the word index
    const db = new Database(join(data, 'knowledge.db'), { readonly: true })
    const rows = db
      .prepare(
        'SELECT f.chunks AS n, (SELECT count(*) FROM chunks c WHERE c.file_pk = f.pk) AS real FROM files f',
      )
      .all() as { n: number; real: number }[]
    for (const r of rows) expect(r.real).toBe(r.n)
    db.close()
  })

  it('removes a source with its chunks, and says what it does not know', async () => {
    await writeDocs()
    const k = open()
    const source = await k.addSource(owner, docs)
    await k.whenIdle()
    await k.removeSource(docs, owner)
    expect(k.sources(owner)).toEqual([])
    expect((await k.search(owner, 'lighthouse')).hits).toEqual([])
    await expect(k.removeSource(source.id)).rejects.toMatchObject({ code: 'not_found' })
    await expect(k.addSource(owner, join(root, 'missing'))).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})
