import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SqliteSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openTempStore } from '../support/session-store'
import { toMatchQuery } from '../../src-main/adapters/sqlite/search'
import { stripBase64 } from '../../src-main/adapters/sqlite/text'

let store: SqliteSessionStore
let clock: number
let close: () => void

beforeEach(() => {
  clock = 1_000
  ;({ store, close } = openTempStore('cairn-storage-search-', { now: () => (clock += 10) }))
})
afterEach(() => close())

function session(title = 'Untitled chat'): string {
  return store.createSession({ title }).id
}

const contents = (hits: { snippet: string }[]): string[] => hits.map((h) => h.snippet)

describe('search input is never FTS syntax', () => {
  const nasty = [
    '"',
    '""',
    '"unbalanced',
    '*',
    'foo*',
    '-',
    '-foo',
    'foo -bar',
    ':',
    'col:foo',
    '(',
    'foo)',
    'NEAR',
    'NEAR(a b)',
    'a AND',
    'OR b',
    'AND OR NOT',
    '^start',
    '+plus',
    "it's",
    '{a b}: c',
    '\\',
    '\u0000',
  ]
  it.each(nasty)('%j does not throw', (q) => {
    const s = session()
    store.appendMessage(s, { role: 'user', content: 'foo bar NEAR start plus it is col' })
    expect(() => store.search(q, { order: 'ranked' })).not.toThrow()
    expect(() => store.search(q, { order: 'newest' })).not.toThrow()
  })

  it('quotes every word and doubles quotes; drops words without letters or digits', () => {
    expect(toMatchQuery('say "hi" now')).toBe('"say" """hi""" "now"')
    expect(toMatchQuery('  -  *  (  ')).toBeNull()
    expect(toMatchQuery('NEAR AND')).toBe('"NEAR" "AND"')
  })

  it('finds the words around the syntax characters, and all words must match', () => {
    const s = session()
    store.appendMessage(s, {
      role: 'user',
      content: 'The "quoted" value is near the end AND also here',
    })
    store.appendMessage(s, { role: 'user', content: 'only near' })
    expect(store.search('"quoted', { order: 'newest' })).toHaveLength(1)
    expect(store.search('quoted*', { order: 'newest' })).toHaveLength(1)
    expect(store.search('(value -', { order: 'newest' })).toHaveLength(1)
    expect(store.search('NEAR', { order: 'newest' })).toHaveLength(2)
    expect(store.search('near AND', { order: 'newest' })).toHaveLength(1)
    expect(store.search('near missingword', { order: 'newest' })).toEqual([])
  })

  it('gives [] for a blank query', () => {
    const s = session()
    store.appendMessage(s, { role: 'user', content: 'anything' })
    expect(store.search('', { order: 'newest' })).toEqual([])
    expect(store.search('   \n\t', { order: 'ranked' })).toEqual([])
    expect(store.search('"" * -', { order: 'ranked' })).toEqual([])
  })
})

describe('what is indexed', () => {
  it('matches across case and diacritics, and non-Latin words', () => {
    const s = session()
    store.appendMessage(s, { role: 'user', content: 'Un café à São Paulo, naïve Zürich' })
    store.appendMessage(s, { role: 'user', content: 'Привет мир' })
    expect(store.search('CAFE', { order: 'newest' })).toHaveLength(1)
    expect(store.search('sao paulo', { order: 'newest' })).toHaveLength(1)
    expect(store.search('zurich naive', { order: 'newest' })).toHaveLength(1)
    expect(store.search('café', { order: 'newest' })).toHaveLength(1)
    expect(store.search('привет', { order: 'newest' })).toHaveLength(1)
  })

  it('finds tool-call arguments and tool results', () => {
    const s = session()
    store.appendMessage(s, {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'read_file', arguments: '{"path":"/srv/quartzite/report.txt"}' },
      ],
    })
    store.appendMessage(s, {
      role: 'tool',
      content: 'Total feldspar content: 12%',
      toolCallId: 'c1',
      toolName: 'read_file',
    })
    const args = store.search('quartzite', { order: 'newest' })
    expect(args).toEqual([expect.objectContaining({ seq: 1, role: 'assistant' })])
    expect(args[0]?.snippet).toContain('[quartzite]')
    expect(store.search('read_file', { order: 'newest' })).toHaveLength(1)
    expect(store.search('feldspar', { order: 'newest' })).toEqual([
      expect.objectContaining({ seq: 2, role: 'tool', snippet: 'Total [feldspar] content: 12%' }),
    ])
  })

  it('never indexes base64 image data, but does index the text around it', () => {
    const s = session()
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg' +
      'QmFzYWx0Q29sdW1uc0FyZUhleGFnb25hbFpxV3ZYcUtyRGZHaEprTG1Ob1BxUnNUdVZ3WHlaMDEyMzQ1Njc4OTAxMjM0'
    const raw =
      'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk'.repeat(
        4,
      )
    store.appendMessage(s, {
      role: 'user',
      content: `Look at this columnar jointing ![photo](data:image/png;base64,${png}) please`,
      parts: [{ type: 'image', mimeType: 'image/png', data: png }],
    })
    store.appendMessage(s, {
      role: 'tool',
      content: `hexagonal basalt dump ${raw} end`,
      toolCallId: 'x',
    })
    expect(store.search('columnar jointing', { order: 'newest' })).toHaveLength(1)
    expect(store.search('please', { order: 'newest' })).toHaveLength(1)
    expect(store.search('hexagonal', { order: 'newest' })).toHaveLength(1)
    expect(store.search(png.slice(0, 40), { order: 'newest' })).toEqual([])
    expect(store.search(png, { order: 'ranked' })).toEqual([])
    expect(store.search(raw.slice(0, 80), { order: 'newest' })).toEqual([])
    expect(
      store.search(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg',
        { order: 'newest' },
      ),
    ).toEqual([])
    // and the snippet shows no base64 either
    expect(store.search('columnar', { order: 'newest' })[0]?.snippet).not.toContain('iVBOR')
    // short base64-looking words are ordinary words
    expect(stripBase64('abc+def/ghi= tail')).toBe('abc+def/ghi= tail')
    expect(stripBase64(`a ${'A'.repeat(200)} b`)).toBe('a   b')
    expect(stripBase64(`a ${'A'.repeat(199)} b`)).toBe(`a ${'A'.repeat(199)} b`)
  })

  it('indexes notices, not summaries or reasoning', () => {
    const s = session()
    store.appendMessage(s, {
      role: 'assistant',
      kind: 'notice',
      content: 'Rate limited by upstream gateway',
    })
    store.appendMessage(s, { role: 'user', kind: 'summary', content: 'Summary about moraines' })
    store.appendMessage(s, { role: 'assistant', content: 'ok', reasoning: 'pondering drumlins' })
    expect(store.search('gateway', { order: 'newest' })).toHaveLength(1)
    expect(store.search('moraines', { order: 'newest' })).toEqual([])
    expect(store.search('drumlins', { order: 'newest' })).toEqual([])
  })

  it('finds session titles, with the matches marked', () => {
    const a = session('Trip to Reykjavik')
    const b = session('Groceries')
    store.appendMessage(b, { role: 'user', content: 'milk' })
    const hits = store.search('reykjavik', { order: 'ranked', markers: ['<b>', '</b>'] })
    expect(hits).toEqual([
      {
        sessionId: a,
        sessionTitle: 'Trip to Reykjavik',
        messageId: null,
        seq: null,
        role: null,
        snippet: 'Trip to <b>Reykjavik</b>',
        createdAt: store.getSession(a)!.updatedAt,
      },
    ])
    store.renameSession(a, 'Trip to Akureyri')
    expect(store.search('reykjavik', { order: 'ranked' })).toEqual([])
    expect(store.search('akureyri', { order: 'newest' })).toHaveLength(1)
  })
})

describe('ordering and snippets', () => {
  it('newest first: messages by time, title hits by the session activity', () => {
    const a = session('granite notes')
    const older = store.appendMessage(a, { role: 'user', content: 'granite one' })
    const b = session('misc')
    const newer = store.appendMessage(b, { role: 'user', content: 'more granite two' })
    const hits = store.search('granite', { order: 'newest' })
    // the title hit is as old as its session's last activity (the older message): on a tie
    // the title comes first
    expect(hits.map((h) => h.messageId)).toEqual([newer.id, null, older.id])
    expect(hits[1]).toMatchObject({ sessionId: a, createdAt: older.createdAt })
    // a title hit moves up when its session gets activity
    store.appendMessage(a, { role: 'assistant', content: 'unrelated' })
    expect(store.search('granite', { order: 'newest' }).map((h) => h.messageId)).toEqual([
      null,
      newer.id,
      older.id,
    ])
    // paging
    expect(
      store.search('granite', { order: 'newest', limit: 1, offset: 1 }).map((h) => h.messageId),
    ).toEqual([newer.id])
    expect(
      store.search('granite', { order: 'newest', limit: 5, offset: 2 }).map((h) => h.messageId),
    ).toEqual([older.id])
  })

  it('ranked: titles first, then the best matches, with marked snippets', () => {
    const s = session('Ranking test')
    const filler = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor'
    const weak = store.appendMessage(s, {
      role: 'user',
      content: `${filler} obsidian ${filler} ${filler}`,
    })
    const strong = store.appendMessage(s, {
      role: 'assistant',
      content: 'obsidian obsidian obsidian glass',
    })
    const t = session('Obsidian knives')
    const hits = store.search('obsidian', { order: 'ranked', markers: ['«', '»'] })
    expect(hits.map((h) => h.messageId)).toEqual([null, strong.id, weak.id])
    expect(hits[0]).toMatchObject({ sessionId: t, snippet: '«Obsidian» knives' })
    expect(hits[1]?.snippet).toBe('«obsidian» «obsidian» «obsidian» glass')
    expect(hits[2]?.snippet).toContain('«obsidian»')
    expect(hits[2]?.snippet).toMatch(/^….*…$/)
    expect(hits[2]!.snippet.split(/\s+/).length).toBeLessThanOrEqual(14)
    expect(hits[1]).toMatchObject({
      sessionId: s,
      sessionTitle: 'Ranking test',
      seq: 2,
      role: 'assistant',
    })
    // default markers
    expect(store.search('glass', { order: 'ranked' })[0]?.snippet).toBe(
      'obsidian obsidian obsidian [glass]',
    )
    // paging continues from the titles into the messages
    expect(
      store.search('obsidian', { order: 'ranked', limit: 2, offset: 1 }).map((h) => h.messageId),
    ).toEqual([strong.id, weak.id])
  })

  it('respects limit', () => {
    const s = session()
    for (let i = 0; i < 30; i++) store.appendMessage(s, { role: 'user', content: `pumice ${i}` })
    expect(store.search('pumice', { order: 'newest' })).toHaveLength(20)
    expect(store.search('pumice', { order: 'ranked', limit: 5 })).toHaveLength(5)
    expect(contents(store.search('pumice', { order: 'newest', limit: 2 }))).toEqual([
      '[pumice] 29',
      '[pumice] 28',
    ])
    // every snippet belongs to its own hit, in both orders and on later pages
    const content = new Map(store.listMessages(s).map((m) => [m.id, m.content]))
    for (const order of ['newest', 'ranked'] as const) {
      const hits = store.search('pumice', { order, limit: 7, offset: 3 })
      expect(hits).toHaveLength(7)
      for (const h of hits)
        expect(h.snippet).toBe(content.get(h.messageId!)!.replace('pumice', '[pumice]'))
    }
  })

  it('deleting a session removes its messages and title from the index', () => {
    const gone = session('Scoria chat')
    const kept = session('Other')
    store.appendMessage(gone, { role: 'user', content: 'scoria cone' })
    store.appendMessage(gone, {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c', name: 'lookup', arguments: '{"q":"scoria"}' }],
    })
    store.appendMessage(kept, { role: 'user', content: 'scoria too' })
    expect(store.search('scoria', { order: 'newest' })).toHaveLength(4)
    store.deleteSession(gone)
    expect(store.search('scoria', { order: 'newest' })).toEqual([
      expect.objectContaining({ sessionId: kept, seq: 1 }),
    ])
    const ftsRows = store.db.prepare('SELECT count(*) FROM messages_fts').pluck().get()
    const titleRows = store.db.prepare('SELECT count(*) FROM sessions_fts').pluck().get()
    expect(ftsRows).toBe(1)
    expect(titleRows).toBe(1)
  })
})
