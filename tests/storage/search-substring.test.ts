import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION, userVersion } from '../../src-main/adapters/sqlite/migrations'
import { markedSnippet, SCAN_WINDOW } from '../../src-main/adapters/sqlite/search-substring'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { databaseAtVersion } from '../support/session-store'

let dir: string
let store: SqliteSessionStore | null = null
let clock: number

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-storage-substring-'))
  clock = 1_000
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

function open(): SqliteSessionStore {
  store = createSessionStore(dir, { now: () => (clock += 10) })
  return store
}

/** message hits only (a session's first message is also its title) */
const inMessages = <T extends { messageId: string | null }>(hits: T[]): T[] =>
  hits.filter((h) => h.messageId !== null)
const snippets = (hits: { snippet: string; messageId: string | null }[]): string[] =>
  inMessages(hits).map((h) => h.snippet)

describe('scripts written without spaces', () => {
  it('finds a word inside a longer run of Chinese, Japanese and Korean text', () => {
    const s = open()
    const id = s.createSession({ title: '旅行の計画' }).id
    s.appendMessage(id, { role: 'user', content: '我住在北京市朝阳区，喜欢喝茶' })
    s.appendMessage(id, { role: 'assistant', content: '東京都に住んでいます。' })
    s.appendMessage(id, { role: 'user', content: '서울에서 만나요' })
    s.appendMessage(id, { role: 'user', content: 'nothing here in Latin' })
    expect(snippets(s.search('北京市', { order: 'ranked', markers: ['<', '>'] }))).toEqual([
      '我住在<北京市>朝阳区，喜欢喝茶',
    ])
    // two characters: shorter than a trigram
    expect(snippets(s.search('東京', { order: 'newest', markers: ['<', '>'] }))).toEqual([
      '<東京>都に住んでいます。',
    ])
    expect(inMessages(s.search('서울', { order: 'newest' }))).toHaveLength(1)
    expect(inMessages(s.search('朝阳区 喝茶', { order: 'newest' }))).toHaveLength(1)
    expect(s.search('朝阳区 紅茶', { order: 'newest' })).toEqual([])
    // a title, by substring too
    const title = s.search('計画', { order: 'newest' })
    expect(title[0]).toMatchObject({ messageId: null, sessionTitle: '旅行の計画' })
  })

  it('mixes with Latin words, and a LIKE wildcard or a quote in the query is a plain character', () => {
    const s = open()
    const id = s.createSession().id
    s.appendMessage(id, { role: 'user', content: '東京 report_2024 100% done' })
    s.appendMessage(id, { role: 'user', content: '東京 reportX2024 1000 done' })
    expect(inMessages(s.search('東京 report_2024', { order: 'newest' }))).toHaveLength(1)
    expect(inMessages(s.search('東京 100%', { order: 'newest' }))).toHaveLength(1)
    expect(inMessages(s.search('東京 done', { order: 'newest' }))).toHaveLength(2)
    for (const q of ['"東京', '東京*', '東京 "', '%東京%', '東京\\', '"東京都"'])
      expect(() => s.search(q, { order: 'ranked' })).not.toThrow()
    expect(inMessages(s.search('東京*', { order: 'newest' }))).toEqual([])
  })

  it('finds tool arguments and tool results in these scripts', () => {
    const s = open()
    const id = s.createSession().id
    s.appendMessage(id, {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"資料/報告書.txt"}' }],
    })
    const result = s.appendMessage(id, {
      role: 'tool',
      content: '売上は前年比で増加しました',
      toolCallId: 'c1',
      toolName: 'read_file',
    })
    expect(inMessages(s.search('報告書', { order: 'newest' }))).toHaveLength(1)
    expect(s.search('前年比', { order: 'newest' })[0]?.messageId).toBe(result.id)
  })

  it('forgets deleted sessions', () => {
    const s = open()
    const id = s.createSession().id
    s.appendMessage(id, { role: 'user', content: '北京市の天気' })
    s.deleteSession(id)
    expect(s.search('北京市', { order: 'newest' })).toEqual([])
    expect(s.search('北京', { order: 'newest' })).toEqual([])
  })

  it('a query of only short terms scans a bounded window of the newest messages', () => {
    const s = open()
    const id = s.createSession().id
    s.appendMessage(id, { role: 'user', content: '古い北京' })
    s.batch(() => {
      for (let i = 0; i < SCAN_WINDOW; i++) s.appendMessage(id, { role: 'user', content: `m ${i}` })
    })
    s.appendMessage(id, { role: 'user', content: '新しい北京' })
    expect(snippets(s.search('北京', { order: 'newest', markers: ['<', '>'] }))).toEqual([
      '新しい<北京>',
    ])
    // three characters use the index, which has no window
    expect(inMessages(s.search('い北京', { order: 'newest' }))).toHaveLength(2)
  })
})

describe('snippets', () => {
  it('cuts around the first match and marks every match', () => {
    const text = `${'あ'.repeat(100)}東京と東京${'い'.repeat(100)}`
    const out = markedSnippet(text, ['東京'], '[', ']')
    expect(out.startsWith('…')).toBe(true)
    expect(out.endsWith('…')).toBe(true)
    expect(out).toContain('[東京]と[東京]')
    expect(markedSnippet('Tokyo TOKYO', ['tokyo'], '[', ']')).toBe('[Tokyo] [TOKYO]')
  })
})

describe('migration v5', () => {
  it('indexes the messages already stored, keeps a backup, and new ones join', () => {
    const db = databaseAtVersion(dir, 4)
    db.prepare(
      `INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s-old', 'Old', 1, 2)`,
    ).run()
    const insert = db.prepare(
      `INSERT INTO messages (pk, id, session_id, seq, kind, role, content, status, created_at)
       VALUES (?, ?, 's-old', ?, 'message', 'user', ?, 'complete', 3)`,
    )
    const fts = db.prepare('INSERT INTO messages_fts (rowid, text, tool_args) VALUES (?, ?, ?)')
    insert.run(1, 'm1', 1, '上海の夜景')
    fts.run(1, '上海の夜景', '')
    insert.run(2, 'm2', 2, 'plain latin words')
    fts.run(2, 'plain latin words', '')
    db.close()

    const s = open()
    expect(userVersion(s.db)).toBe(SCHEMA_VERSION)
    expect(readdirSync(dir).some((f) => f.startsWith('cairn.db.bak-v4-'))).toBe(true)
    expect(s.search('上海の夜景', { order: 'newest' })[0]?.messageId).toBe('m1')
    expect(s.search('上海', { order: 'newest' })[0]?.messageId).toBe('m1')
    expect(s.db.prepare('SELECT count(*) AS n FROM messages_cjk').get()).toEqual({ n: 1 })
    expect(s.search('latin', { order: 'newest' })[0]?.messageId).toBe('m2')
    s.appendMessage('s-old', { role: 'user', content: '上海から' })
    expect(inMessages(s.search('上海', { order: 'newest' }))).toHaveLength(2)
  })
})
