/**
 * Damaged data says what is wrong instead of failing with a stack trace: one stored row with
 * invalid JSON is shown as unreadable while the rest of the session opens and continues; a
 * damaged database and a data directory Cairn cannot write to give a StorageError that says
 * what to do; a damaged database is set aside only when asked.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setDamagedDatabaseAside, StorageError } from '../../src-main/adapters/sqlite/open-errors'
import { openAppServices } from '../../src-main/services/host/app-services'
import { createHarness, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'
import { useTempDirs } from '../settings/temp-dirs'
import { checkoutUnreachable, NOBODY } from '../support/unprivileged'

const tempDir = useTempDirs()

describe('a stored row with invalid JSON', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => {
    await h.close()
  })

  it('is shown as unreadable, with the results of its tool calls; the rest opens and the session continues', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'read_note', arguments: '{"key":"a"}' }]),
      textReply('Read it.'),
    )
    expect((await h.turn('read a note')).outcome.reason).toBe('completed')
    const before = h.store.listMessages(h.sessionId)
    const call = before.find((m) => m.toolCalls?.length)!
    h.store.db
      .prepare('UPDATE messages SET tool_calls = ? WHERE id = ?')
      .run('[{"id": "c1", "na', call.id)
    h.store.db.prepare("UPDATE sessions SET todos = 'not json' WHERE id = ?").run(h.sessionId)

    const after = h.store.listMessages(h.sessionId)
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id))
    const broken = after.find((m) => m.id === call.id)!
    expect(broken).toMatchObject({ kind: 'notice', toolCalls: null })
    expect(broken.content).toMatch(/could not be read: its stored tool calls is damaged/)
    const result = after.find((m) => m.role === 'tool')!
    expect(result.kind).toBe('notice')
    expect(result.content).toMatch(/answers a tool call whose request could not be read/)
    expect(after.at(-1)).toMatchObject({ kind: 'message', content: 'Read it.' })
    expect(h.store.listSessions({ limit: 10 }).sessions.map((s) => s.id)).toContain(h.sessionId)
    expect(h.store.getSession(h.sessionId)?.todos).toEqual([])
    expect(h.store.exportSession(h.sessionId, 'md')).toContain('Read it.')

    // the session continues, and the model (a strict server) is sent a valid history
    h.server.enqueue(textReply('Still here.'))
    const next = await h.turn('are you there?')
    expect(next.outcome.error).toBeUndefined()
    expect(next.outcome.reason).toBe('completed')
    const sent = h.server.requests.at(-1)!.body as {
      messages: { role: string; content: unknown }[]
    }
    expect(sent.messages.some((m) => m.role === 'tool')).toBe(false)
    expect(sent.messages.map((m) => m.content)).toContain('Read it.')
  })
})

describe('opening a data directory', () => {
  it('a damaged database: a StorageError that says what to do; set aside only when asked, then a new one opens', () => {
    const dir = tempDir()
    openAppServices(dir).close()
    const db = path.join(dir, 'cairn.db')
    fs.writeFileSync(db, 'this is not a database, it was overwritten'.repeat(200))
    fs.rmSync(`${db}-wal`, { force: true })
    fs.rmSync(`${db}-shm`, { force: true })
    let error: unknown
    try {
      openAppServices(dir).close()
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(StorageError)
    expect(error).toMatchObject({ code: 'database_damaged', path: db })
    expect((error as Error).message).toMatch(/is damaged and cannot be opened.*copy it aside/s)
    // nothing was touched without consent
    expect(fs.readFileSync(db, 'utf8')).toMatch(/^this is not a database/)

    const aside = setDamagedDatabaseAside(dir, () => Date.UTC(2026, 0, 2))
    expect(path.basename(aside)).toBe('cairn.db.damaged-20260102T000000000Z')
    expect(fs.readFileSync(aside, 'utf8')).toMatch(/^this is not a database/)
    const app = openAppServices(dir)
    expect(app.store.listSessions({ limit: 10 }).sessions).toEqual([])
    app.close()
  })

  // as root every directory is writable: the code runs as an unprivileged user then, which
  // loads it from the checkout (skipped, saying why, where that user cannot read it)
  const asRoot = process.getuid?.() === 0
  const unreachable = asRoot ? checkoutUnreachable() : null
  ;(unreachable ? it.skip : it)(
    `a data directory Cairn cannot write to: a StorageError that names it and says what to do${unreachable ? ` (skipped: ${unreachable})` : ''}`,
    () => {
      const dir = tempDir()
      const data = path.join(dir, 'data')
      fs.mkdirSync(data)
      fs.chmodSync(data, 0o500)
      const script = `
      import { openAppServices } from './src-main/services/host/app-services.ts'
      try { openAppServices(${JSON.stringify(data)}).close(); console.log('opened') }
      catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })) }`
      const asUser = asRoot ? NOBODY : {}
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        {
          cwd: process.cwd(),
          encoding: 'utf8',
          env: { ...process.env, HOME: dir },
          ...asUser,
        },
      )
      fs.chmodSync(data, 0o700)
      const out = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, string>
      expect(out).toMatchObject({ name: 'StorageError', code: 'data_dir_not_writable' })
      expect(out['message']).toMatch(/cannot write to its data directory .*data.*--data-dir/)
    },
  )
})
