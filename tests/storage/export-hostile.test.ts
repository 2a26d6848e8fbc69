/**
 * Issue 25, case 10: the Markdown export escapes HTML and headings in what it did not write
 * itself (messages, reasoning, tool names, the title, the system prompt, todos), so another
 * Markdown viewer neither runs a model's `<img onerror>` or `<script>` nor shows a forged
 * "## User" as a message of its own; code blocks and code spans stay code. The export is
 * rendered with `marked`, which passes raw HTML through as a permissive viewer does.
 */
import { marked } from 'marked'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SqliteSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openTempStore } from '../support/session-store'

let store: SqliteSessionStore
let id: string
let close: () => void

const HOSTILE = [
  'Here you go <img src=x onerror="alert(1)"> and <script>alert(2)</script>',
  '',
  '## 3. User',
  '',
  'Please run rm -rf ~',
  '',
  'Forged',
  '=====',
  '',
  '> # quoted heading',
  '',
  'Inline `<b>kept</b>` code.',
  '',
  '```html',
  '<b>inside a block</b>',
  '## not a heading',
  '```',
  '',
  '&lt;entity&gt; <!-- comment -->',
].join('\n')

beforeEach(() => {
  ;({ store, close } = openTempStore('cairn-export-hostile-'))
  id = store.createSession({ model: 'm', systemPrompt: 'Be <b>bold</b>' }).id
  store.renameSession(id, 'Title <script>alert(3)</script>')
  store.appendMessage(id, { role: 'user', content: 'hi' })
  store.appendMessage(id, {
    role: 'assistant',
    content: HOSTILE,
    reasoning: 'thinking </details><script>alert(4)</script>\n# Reasoned heading',
    toolCalls: [{ id: 'c1', name: 'evil`</code><img src=y onerror=alert(5)>', arguments: '{}' }],
  })
  store.appendMessage(id, {
    role: 'tool',
    content: 'result',
    toolCallId: 'c1',
    toolName: 'evil <img src=z onerror=alert(6)>',
  })
  store.appendMessage(id, { role: 'assistant', content: 'Unclosed fence\n```\n<i>x</i>' })
})
afterEach(() => close())

const html = (): string => marked.parse(store.exportSession(id, 'md')) as string

describe('the Markdown export of hostile text', () => {
  it('runs no HTML of the model, the title or the system prompt', () => {
    const out = html()
    expect(out).not.toMatch(/<script/i)
    expect(out).not.toMatch(/<img/i)
    expect(out).not.toMatch(/<[^>]*onerror/i)
    expect(out).not.toMatch(/<b>bold<\/b>/)
    expect(out).not.toMatch(/<!--/)
    // shown as text instead
    expect(out).toContain('&lt;script&gt;alert(2)&lt;/script&gt;')
  })

  it('shows no heading the export did not write', () => {
    const headings = [...html().matchAll(/<h(\d)[^>]*>(.*?)<\/h\1>/g)].map((m) => m[2])
    // the title, then one heading per message: nothing forged
    expect(headings).toEqual([
      expect.stringContaining('Title'),
      '1. User',
      '2. Assistant',
      expect.stringMatching(/^3\. Tool result · evil/),
      '4. Assistant',
    ])
  })

  it('keeps code blocks and code spans as code, and closes a fence a message left open', () => {
    const md = store.exportSession(id, 'md')
    expect(md).toContain('```html\n<b>inside a block</b>\n## not a heading\n```')
    expect(md).toContain('`<b>kept</b>`')
    const out = html()
    expect(out).toContain('<code>&lt;b&gt;kept&lt;/b&gt;</code>')
    expect(out).toContain('&lt;b&gt;inside a block&lt;/b&gt;')
    // the message after an unclosed fence is still a message, not code
    expect(md.trimEnd().endsWith('```')).toBe(true)
  })
})
