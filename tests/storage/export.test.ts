import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fence } from '../../src-main/core/markdown-fence'
import {
  SessionNotFoundError,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { openTempStore } from '../support/session-store'

let store: SqliteSessionStore
let id: string
let close: () => void

beforeEach(() => {
  ;({ store, close } = openTempStore('cairn-storage-export-', {
    now: () => Date.UTC(2025, 4, 6, 7, 8, 9),
  }))
  id = store.createSession({
    model: 'qwen3',
    provider: 'http://localhost:11434/v1',
    workspace: '/home/me/rocks',
  }).id
  store.appendMessage(id, { role: 'user', content: 'What is in notes.md?' })
  store.appendMessage(id, {
    role: 'assistant',
    content: 'Let me look.',
    reasoning: 'I should read the file first.',
    model: 'qwen3',
    toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes.md"}' }],
    usage: { inputTokens: 50, outputTokens: 12, estimated: false },
  })
  store.appendMessage(id, {
    role: 'tool',
    content: 'Basalt columns\n```\ncode inside\n```',
    toolCallId: 'c1',
    toolName: 'read_file',
    parts: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg' }],
  })
  store.appendMessage(id, {
    role: 'assistant',
    content: 'It is about basalt columns.',
    model: 'qwen3',
  })
  store.appendMessage(id, { role: 'assistant', kind: 'notice', content: 'Context was compacted.' })
})
afterEach(() => close())

describe('export', () => {
  it('markdown: title, metadata, messages, reasoning in <details>, tool calls and results', () => {
    const md = store.exportSession(id, 'md')
    expect(md.startsWith('# What is in notes.md?\n')).toBe(true)
    expect(md).toContain(`- Session: \`${id}\``)
    expect(md).toContain('- Model: qwen3')
    expect(md).toContain('- Provider: http://localhost:11434/v1')
    expect(md).toContain('- Workspace: `/home/me/rocks`')
    expect(md).toContain('- Created: 2025-05-06T07:08:09.000Z')
    expect(md).toContain('- Tokens: 50 in, 12 out')
    expect(md).toContain('## 1. User')
    expect(md).toContain('## 2. Assistant (qwen3)')
    expect(md).toContain(
      '<details>\n<summary>Reasoning</summary>\n\nI should read the file first.\n\n</details>',
    )
    expect(md).toContain(
      '**Tool call** `read_file` (id `c1`)\n\n```json\n{\n  "path": "notes.md"\n}\n```',
    )
    expect(md).toContain('## 3. Tool result · read_file')
    // the result holds a fence: the export uses a longer one
    expect(md).toContain('````\nBasalt columns\n```\ncode inside\n```\n````')
    expect(md).toContain('_[image: image/png]_')
    expect(md).not.toContain('iVBORw0KGgo')
    expect(md).toContain('It is about basalt columns.')
    expect(md).toContain('> **Notice**')
    expect(md.indexOf('## 1. User')).toBeLessThan(md.indexOf('## 2. Assistant'))
    expect(md.indexOf('## 2. Assistant')).toBeLessThan(md.indexOf('## 3. Tool result'))
  })

  it('json: { format, version, session, messages }, pretty-printed, complete', () => {
    const json = store.exportSession(id, 'json')
    expect(json).toContain('\n  "session": {')
    const parsed = JSON.parse(json) as { session: unknown; messages: unknown[] }
    expect(Object.keys(parsed)).toEqual(['format', 'version', 'session', 'messages'])
    expect(parsed).toMatchObject({ format: 'cairn-session', version: 2 })
    expect(parsed.session).toEqual(store.getSession(id))
    expect(parsed.messages).toEqual(store.listMessages(id))
    expect(parsed.messages).toHaveLength(5)
  })

  it('markdown writes the open branch; json keeps every branch, the tree and the open branch', () => {
    // the question (seq 6) was asked, then asked again (seq 8), then edited (seq 10)
    store.appendMessage(id, { role: 'user', content: 'Summarize it.' })
    store.appendMessage(id, { role: 'assistant', content: 'Draft one: columns.' })
    store.appendMessage(id, { role: 'user', content: 'Summarize it.', supersedes: 6, parentSeq: 5 })
    store.appendMessage(id, {
      role: 'assistant',
      content: 'Draft two: hexagons.',
      reasoning: 'shorter',
      reasoningMs: 420,
    })
    store.appendMessage(id, {
      role: 'user',
      content: 'Summarize it in a word.',
      supersedes: 8,
      parentSeq: 5,
    })
    store.appendMessage(id, { role: 'assistant', content: 'Basalt.' })
    const md = store.exportSession(id, 'md')
    expect(md).not.toContain('Draft one')
    expect(md).not.toContain('Draft two')
    expect(md).not.toContain('## 6. User')
    expect(md).toContain('## 10. User')
    expect(md).toContain('Summarize it in a word.')
    expect(md).toContain('Basalt.')
    expect(md).toContain('It is about basalt columns.')
    expect(md).toContain('- Messages: 7')
    expect(md).toContain('- Messages on other branches, left out: 4')
    const json = JSON.parse(store.exportSession(id, 'json')) as {
      session: { leafSeq: number }
      messages: {
        seq: number
        parentSeq: number | null
        supersedes: number | null
        reasoningMs: number | null
      }[]
    }
    expect(json.messages).toHaveLength(11)
    expect(json.session.leafSeq).toBe(11)
    expect(json.messages.map((m) => m.parentSeq)).toEqual([null, 1, 2, 3, 4, 5, 6, 5, 8, 5, 10])
    expect(json.messages.map((m) => m.supersedes)).toEqual([
      ...Array<null>(7).fill(null),
      6,
      null,
      8,
      null,
    ])
    expect(json.messages[8]?.reasoningMs).toBe(420)
  })

  it('an untitled, empty session still exports; a missing one throws', () => {
    const empty = store.createSession().id
    expect(store.exportSession(empty, 'md')).toMatch(/^# Untitled session\n/)
    expect(JSON.parse(store.exportSession(empty, 'json'))).toMatchObject({ messages: [] })
    expect(() => store.exportSession('missing', 'md')).toThrow(SessionNotFoundError)
  })

  it('fences are longer than any backtick run inside', () => {
    expect(fence('plain')).toBe('```\nplain\n```')
    expect(fence('a ````` b', 'txt')).toBe('``````txt\na ````` b\n``````')
  })
})
