/**
 * `cairn sessions list` / `show` on damaged data, as a user runs them (the built CLI): a
 * damaged row does not break them, a damaged database is one clear message and nothing is
 * changed without a yes at a terminal.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { runCli } from '../support/cli'
import { useTempDirs } from '../settings/temp-dirs'

const tempDir = useTempDirs()
const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/)

describe('the CLI on damaged data', () => {
  it('lists and shows a session with an unreadable row', async () => {
    const dir = tempDir()
    const store = createSessionStore(dir)
    const s = store.createSession({ title: 'damaged one' })
    store.appendMessage(s.id, { role: 'user', content: 'hello there', status: 'complete' })
    const bad = store.appendMessage(s.id, {
      role: 'assistant',
      content: 'an answer',
      status: 'complete',
      toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }],
    })
    store.db.prepare('UPDATE messages SET tool_calls = ? WHERE id = ?').run('{{{', bad.id)
    store.close()

    const list = await runCli(['sessions', 'list', '--data-dir', dir])
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('damaged one')
    const show = await runCli(['sessions', 'show', s.id, '--data-dir', dir])
    noStack(show.stderr)
    expect(show.code).toBe(0)
    expect(show.stdout).toContain('hello there')
    expect(show.stdout).toMatch(/could not be read/)
  })

  it('says a database is damaged, without a stack trace, and changes nothing without a terminal', async () => {
    const dir = tempDir()
    createSessionStore(dir).close()
    const db = path.join(dir, 'cairn.db')
    for (const f of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(f, { force: true })
    fs.writeFileSync(db, 'garbage '.repeat(1000))
    const res = await runCli(['sessions', 'list', '--data-dir', dir])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/cairn\.db is damaged and cannot be opened/)
    expect(res.stderr).toMatch(/Run cairn in a terminal to be asked/)
    noStack(res.stderr)
    expect(fs.readFileSync(db, 'utf8')).toMatch(/^garbage/)
    expect(fs.readdirSync(dir).filter((f) => f.includes('damaged'))).toEqual([])
  })
})
