/**
 * The window's import routes (issue 21) on a real host: a file offered as browser mode's
 * upload does (`offerImport`) is imported by `imports.start` in the worker thread, its
 * progress and end come as `imports.progress` events and the sidebar is told to reload; a
 * file that is not an export ends `failed` with `import_unreadable`; an unknown file id is
 * `not_found`; the system's dialog is the desktop app's only (`unavailable` here); the
 * upload's copy is removed once imported.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { unwrap, waitForEvent } from '../support/bridges'
import { openTestHost, type TestHost } from '../support/host'

const FIXTURES = join(__dirname, '..', 'fixtures', 'import')
let t: TestHost

beforeAll(async () => {
  t = await openTestHost({ prefix: 'cairn-import-routes-', hostKind: 'web' })
}, 60_000)
afterAll(() => t?.stop())

it(
  'imports an offered file with progress events, then the sidebar reloads',
  { timeout: 60_000 },
  async () => {
    const copy = join(t.dir, 'upload-1')
    copyFileSync(join(FIXTURES, 'claude-export.zip'), copy)
    const offered = await t.host.offerImport(copy, 'claude-export.zip')
    expect(offered).toMatchObject({ name: 'claude-export.zip', bytes: expect.any(Number) })
    const run = unwrap(await t.b.request('imports.start', { fileId: offered.fileId }))
    expect(run.state).toBe('running')
    const end = await waitForEvent(
      t.b,
      'imports.progress',
      (r) => r.importId === run.importId && r.state !== 'running',
      30_000,
    )
    expect(end.state).toBe('done')
    expect(end.summary).toMatchObject({ created: 2, messages: 7, skipped: [] })
    await waitForEvent(t.b, 'sessions.changed', (p) => p.sessionId === null)
    const { sessions } = unwrap(await t.b.request('sessions.list', { limit: 10 }))
    expect(sessions.map((s) => s.origin?.kind)).toEqual(['import', 'import'])
    expect(existsSync(copy)).toBe(false)
    expect(unwrap(await t.b.request('imports.list', {})).imports).toEqual([])
    // an id used once is gone
    const again = await t.b.request('imports.start', { fileId: offered.fileId })
    expect(again.ok ? null : again.error.code).toBe('not_found')
  },
)

it(
  'a file that is not an export ends failed with import_unreadable; the dialog is the desktop app’s',
  { timeout: 60_000 },
  async () => {
    const notes = join(t.dir, 'upload-2')
    writeFileSync(notes, 'plain notes')
    const offered = await t.host.offerImport(notes, 'notes.txt')
    const run = unwrap(await t.b.request('imports.start', { fileId: offered.fileId }))
    const end = await waitForEvent(
      t.b,
      'imports.progress',
      (r) => r.importId === run.importId && r.state !== 'running',
      30_000,
    )
    expect(end.state).toBe('failed')
    expect(end.error).toMatchObject({
      code: 'import_unreadable',
      details: { file: 'notes.txt', problem: 'not_an_export' },
    })
    const pick = await t.b.request('imports.pick', {})
    expect(pick.ok ? null : pick.error.code).toBe('unavailable')
    const cancel = unwrap(await t.b.request('imports.cancel', { importId: 'nope' }))
    expect(cancel.cancelled).toBe(false)
  },
)
