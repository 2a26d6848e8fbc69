/**
 * The built `cairn` on a database damaged after it opened, as a user runs it: a command
 * whose query meets the damage says what is wrong and what to do, exits non-zero, shows no
 * stack trace and changes nothing without a yes at a terminal; a turn that cannot store its
 * answer says which text was not saved.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { runCli } from '../support/cli'
import { startScriptedServer, textReply, type ScriptedServer } from '../support/openai-server'
import { useTempDirs } from '../settings/temp-dirs'
import { damagePages, rawQueryError } from './late-damage'

const tempDir = useTempDirs()
const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/)
const asides = (dir: string): string[] => fs.readdirSync(dir).filter((f) => f.includes('damaged'))

let dir: string
let file: string
let sessionId: string
beforeEach(() => {
  dir = tempDir()
  file = path.join(dir, 'cairn.db')
  const store = createSessionStore(dir)
  sessionId = store.createSession({ title: 'a long chat' }).id
  for (let i = 0; i < 40; i++)
    store.appendMessage(sessionId, {
      role: i % 2 ? 'assistant' : 'user',
      content: `words about cairns ${i} `.repeat(30),
    })
  store.close()
})

/** what every command that met the damage says */
function saysDamaged(r: { code: number | null; stderr: string }): void {
  expect(r.code).toBe(1)
  noStack(r.stderr)
  expect(r.stderr).not.toMatch(/unexpected error/)
  expect(r.stderr).toMatch(/cairn\.db cannot be used: part of it is damaged .*SQLITE_CORRUPT/)
  expect(r.stderr).toMatch(/copy it aside/)
  expect(r.stderr).toContain('Run the command again in a terminal to be asked')
  expect(r.stderr).toContain(`move ${file} (and its -wal and -shm files) elsewhere yourself`)
  expect(asides(dir)).toEqual([])
}

describe('cairn on a database damaged after it opened', () => {
  it('sessions show: says what is wrong and what to do, changes nothing', async () => {
    damagePages(file, 'messages')
    expect(rawQueryError(file, 'SELECT count(*) FROM sessions')).toBeNull()
    expect(rawQueryError(file, 'SELECT content FROM messages')).toMatch(/^SQLITE_CORRUPT/)
    const r = await runCli(['sessions', 'show', sessionId, '--data-dir', dir])
    saysDamaged(r)
  })

  it("sessions list, on the sessions' pages", async () => {
    damagePages(file, 'sessions')
    expect(rawQueryError(file, 'SELECT title FROM sessions')).toMatch(/^SQLITE_CORRUPT/)
    saysDamaged(await runCli(['sessions', 'list', '--data-dir', dir]))
  })

  it('sessions search on a damaged index', async () => {
    damagePages(file, 'messages_fts_data')
    saysDamaged(await runCli(['sessions', 'search', 'cairns', '--data-dir', dir]))
  })

  it('damage met by a query outside the session store (the assistants table) is said the same way', async () => {
    damagePages(file, 'assistants')
    expect(rawQueryError(file, 'SELECT * FROM assistants')).toMatch(/^SQLITE_CORRUPT/)
    saysDamaged(await runCli(['assistants', 'list', '--data-dir', dir]))
  })
})

describe('a cairn turn on a database damaged while it runs', () => {
  let server: ScriptedServer
  beforeEach(async () => {
    server = await startScriptedServer({ models: ['m1'] })
  })
  afterEach(async () => {
    await server.close()
  })

  it('prints the answer, says it was not saved and what to do, exits non-zero', async () => {
    const answer = 'Here is an answer that streams out, then cannot be stored.'
    server.enqueue(() => {
      damagePages(file, 'messages')
      return textReply(answer)
    })
    const r = await runCli(
      ['--base-url', server.baseURL, '--model', 'm1', '--session', sessionId, 'go on'],
      { env: { CAIRN_DATA_DIR: dir, CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' } },
    )
    expect(r.stdout).toContain(answer)
    expect(r.stderr).toContain(`Not saved: the answer shown above (${answer.length} characters)`)
    saysDamaged(r)
  })
})
