/**
 * Importing exports (issue 21): ChatGPT's (its tree and open branch, code-interpreter and
 * browsing messages as text, images and files as placeholders), Claude's (content blocks,
 * extracted attachment text, branches), the .zip as downloaded, a malformed conversation
 * among good ones, a truncated file, importing again (nothing added) and a newer export
 * (only what is new). On the real store in a temporary data directory.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openBranch } from '../../src-main/core/agent/history-tree'
import { importFile } from '../../src-main/adapters/import/import-file'
import { ExpectedError } from '../../src-main/core/errors'
import type { SqliteSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openTempStore, type TempStore } from '../support/session-store'

const FIXTURES = join(__dirname, '..', 'fixtures', 'import')
const fixture = (name: string): string => join(FIXTURES, name)

let temp: TempStore
let store: SqliteSessionStore

beforeEach(() => {
  temp = openTempStore('cairn-import-', { now: () => Date.UTC(2026, 10, 1, 12) })
  store = temp.store
})
afterEach(() => temp.close())

const sessions = () => store.listSessions({ limit: 100, includeArchived: true }).sessions
const byTitle = (title: string) => {
  const s = sessions().find((x) => x.title === title)
  if (!s)
    throw new Error(
      `no session "${title}" among ${sessions()
        .map((x) => x.title)
        .join(', ')}`,
    )
  return s
}
const branchTexts = (id: string) => {
  const s = store.getSession(id)!
  return openBranch(store.listMessages(id), s.leafSeq).map((m) => `${m.role}: ${m.content}`)
}

describe('ChatGPT exports', () => {
  it('keeps the whole tree, opens current_node, and brings tools, images and files as text', async () => {
    const summary = await importFile(store, fixture('chatgpt-conversations.json'))
    expect(summary).toMatchObject({ conversations: 2, created: 2, updated: 0, skipped: [] })
    expect(summary.sources).toEqual(['chatgpt'])
    const quokka = byTitle('Quokka facts')
    expect(quokka.origin).toEqual({
      kind: 'import',
      source: 'chatgpt',
      sourceId: 'conv-chatgpt-0001',
      at: Date.UTC(2026, 10, 1, 12),
    })
    expect(quokka.createdAt).toBe(1714000000123)
    expect(quokka.updatedAt).toBe(1714000600500)
    expect(quokka.model).toBe('gpt-4o')
    const all = store.listMessages(quokka.id)
    // the empty root and the hidden system message are not kept: 6 messages of the 8 nodes
    expect(all).toHaveLength(6)
    // both first questions follow nothing: the edit is a second version at the first point
    const roots = all.filter((m) => m.parentSeq === null).map((m) => m.content)
    expect(roots).toEqual([
      'Where do quokkas live?',
      expect.stringContaining('How many quokkas are in this photo?'),
    ])
    const open = branchTexts(quokka.id)
    expect(open).toHaveLength(4)
    expect(open[0]).toContain('[Image: file-AbC123, 800×600 (not in the export)]')
    expect(open[0]).toContain('[File: quokka-census.csv (not in the export)]')
    expect(open[1]).toContain('[Sent to python]')
    expect(open[1]).toContain("pd.read_csv('/mnt/data/quokka-census.csv')")
    expect(open[2]).toBe('assistant: [python output]\n\n```\n12\n```')
    expect(open[3]).toBe('assistant: The census lists 12 quokkas; the photo shows three.')
    const answer = all.find((m) => m.content.startsWith('Quokkas live'))!
    expect(answer.model).toBe('gpt-4o')
    expect(answer.createdAt).toBe(1714000020000)
    const tides = byTitle('Browsing for tides')
    expect(branchTexts(tides.id)[1]).toBe(
      'assistant: [browser output]\n\nFremantle tide times\n\nhttps://example.org/tides\n\nHigh tide at 06:12 and 18:40.',
    )
  })

  it('reads the .zip as downloaded, and finds the imported words at once', async () => {
    const summary = await importFile(store, fixture('chatgpt-export.zip'))
    expect(summary.created).toBe(2)
    const hits = store.search('Rottnest', { order: 'ranked', limit: 10 })
    expect(hits.map((h) => h.sessionTitle)).toEqual(['Quokka facts'])
  })

  it('importing the same export again adds nothing; a newer one adds only what is new', async () => {
    await importFile(store, fixture('chatgpt-conversations.json'))
    const again = await importFile(store, fixture('chatgpt-export.zip'))
    expect(again).toMatchObject({
      conversations: 2,
      created: 0,
      updated: 0,
      unchanged: 2,
      messages: 0,
    })
    expect(sessions()).toHaveLength(2)
    const newer = await importFile(store, fixture('chatgpt-conversations-newer.json'))
    expect(newer).toMatchObject({
      conversations: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      messages: 4,
    })
    const quokka = byTitle('Quokka facts')
    expect(store.listMessages(quokka.id)).toHaveLength(8)
    expect(branchTexts(quokka.id).slice(-2)).toEqual([
      'user: Are quokkas nocturnal?',
      'assistant: Mostly: they feed at night.',
    ])
    expect(byTitle('Numbat diet').model).toBe('gpt-4o-mini')
  })
})

describe('Claude exports', () => {
  it('brings content blocks, reasoning, extracted attachment text, files named, and its branches', async () => {
    const summary = await importFile(store, fixture('claude-export.zip'))
    expect(summary).toMatchObject({ conversations: 2, created: 2, skipped: [] })
    expect(summary.sources).toEqual(['claude'])
    const tank = byTitle('Axolotl tank setup')
    expect(tank.origin).toMatchObject({
      kind: 'import',
      source: 'claude',
      sourceId: 'conv-claude-0001',
    })
    const all = store.listMessages(tank.id)
    expect(all).toHaveLength(5)
    const question = all[0]!
    expect(question.content).toContain('[Attached: tank-notes.txt]')
    expect(question.content).toContain('Water 17 degrees.')
    expect(question.content).toContain('[File: tank-photo.jpg (not in the export)]')
    const first = all.find((m) => m.content.includes('your 17 degrees is right'))!
    expect(first.reasoning).toBe('Axolotls prefer cold water; check the notes.')
    expect(first.content).toContain('[Used web_search]')
    expect(first.content).toContain('"query": "axolotl water temperature"')
    expect(first.content).toContain('[web_search result]')
    // two answers to the first message; the open branch is the one the last message ends
    expect(all.filter((m) => m.parentSeq === question.seq)).toHaveLength(2)
    expect(branchTexts(tank.id)).toEqual([
      expect.stringContaining('user: What temperature'),
      'assistant: An axolotl tank should stay below 20 °C.',
      'user: And what should they eat?',
      'assistant: Earthworms and sinking pellets.',
    ])
    // the older shape: text only, in order
    expect(branchTexts(byTitle('Sourdough starter').id)).toEqual([
      'user: How often should I feed a sourdough starter?',
      'assistant: Once a day at room temperature, once a week in the fridge.',
    ])
    expect(store.search('axolotl', { order: 'ranked', limit: 10 })[0]?.sessionTitle).toBe(
      'Axolotl tank setup',
    )
  })
})

describe('broken exports', () => {
  it('skips a malformed conversation by its position and title, and imports the rest', async () => {
    const summary = await importFile(store, fixture('mixed-malformed.json'))
    expect(summary.created).toBe(2)
    expect(summary.skipped).toEqual([
      {
        position: 2,
        title: 'Broken export entry',
        problem: 'malformed',
        reason: 'its messages (mapping) are missing',
      },
      { position: 3, title: '', problem: 'malformed', reason: 'it is not an object' },
    ])
    expect(summary.sources).toEqual(['chatgpt', 'claude'])
  })

  it('a truncated export imports what it can and names where it ends', async () => {
    const whole = readFileSync(fixture('claude-conversations.json'), 'utf8')
    const cut = join(temp.dir, 'cut.json')
    // cut in the middle of the second conversation
    writeFileSync(cut, whole.slice(0, whole.indexOf('Sourdough') + 20))
    const summary = await importFile(store, cut)
    expect(summary.created).toBe(1)
    expect(summary.skipped).toEqual([
      {
        position: 2,
        title: '',
        problem: 'truncated',
        reason: 'the file ends before conversation 2 does',
      },
    ])
    expect(sessions().map((s) => s.title)).toEqual(['Axolotl tank setup'])
  })

  it('a file that is not an export is import_unreadable, and nothing is written', async () => {
    const notJson = join(temp.dir, 'notes.txt')
    writeFileSync(notJson, 'just some notes')
    const cases: [string, string][] = [
      [notJson, 'not_an_export'],
      [join(temp.dir, 'missing.json'), 'not_found'],
      [fixture('README.md'), 'not_an_export'],
    ]
    for (const [file, problem] of cases) {
      const e = await importFile(store, file).catch((x: unknown) => x)
      expect(e).toBeInstanceOf(ExpectedError)
      expect((e as ExpectedError).code).toBe('import_unreadable')
      expect((e as ExpectedError<'import_unreadable'>).details?.problem).toBe(problem)
    }
    const garbage = join(temp.dir, 'garbage.json')
    writeFileSync(garbage, '[{"title": "x", oops')
    const e = (await importFile(store, garbage).catch((x: unknown) => x)) as ExpectedError
    expect([e.code, (e as ExpectedError<'import_unreadable'>).details?.problem]).toEqual([
      'import_unreadable',
      'damaged',
    ])
    expect(sessions()).toHaveLength(0)
  })

  it('cancelling stops between two conversations and keeps what was written', async () => {
    const abort = new AbortController()
    abort.abort()
    const summary = await importFile(store, fixture('chatgpt-conversations.json'), {
      signal: abort.signal,
    })
    expect(summary.cancelled).toBe(true)
    expect(summary.created).toBe(1)
    expect(sessions()).toHaveLength(1)
  })
})
