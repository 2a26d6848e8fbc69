/**
 * The system's folder picker and save dialog: shown by the main process over the window,
 * answered through the real host's routes; browser mode says it has none.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { filtersFor, nativeDialogs } from '../../src-main/electron/native-dialogs'
import { safeFilename } from '../../src-main/services/handlers/app'
import { ipcBridge, unwrap, type TestBridge } from '../support/bridges'
import { start, useAppHarness } from './app-harness'
import { dialog } from './electron-mock'

vi.mock('electron', () => import('./electron-mock'))
useAppHarness()

let dir = ''
let host: AppHost | null = null
let bridge: TestBridge | null = null
afterEach(async () => {
  await bridge?.close()
  await host?.shutdown()
  bridge = host = null
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function open(withDialogs: boolean): Promise<TestBridge> {
  dir = mkdtempSync(join(tmpdir(), 'cairn-dialogs-'))
  host = await createAppHost({
    dataDir: join(dir, 'data'),
    hostKind: withDialogs ? 'electron' : 'web',
    version: 't',
    env: { CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' },
    ...(withDialogs ? { dialogs: nativeDialogs(dialog, () => null) } : {}),
  })
  bridge = ipcBridge(host)
  return bridge
}

describe('the desktop app wires its dialogs to the window', () => {
  it('the folder picker opens over the main window, for folders only', async () => {
    const { createHost, win } = await start()
    const dialogs = createHost.mock.calls[0]![0].dialogs!
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/home/me/work'] })
    await expect(dialogs.pickFolder({ title: 'Workspace' })).resolves.toBe('/home/me/work')
    const [parent, options] = dialog.showOpenDialog.mock.calls[0]!
    expect(parent).toBe(win)
    expect(options).toMatchObject({ title: 'Workspace' })
    expect((options as { properties: string[] }).properties).toContain('openDirectory')
    expect((options as { properties: string[] }).properties).not.toContain('openFile')
  })
})

describe('app.pickFolder and app.saveFile', () => {
  it('a chosen folder comes back; a cancelled picker answers null', async () => {
    const b = await open(true)
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/srv/projects'] })
    expect(unwrap(await b.request('app.pickFolder', { title: 'Default workspace' }))).toEqual({
      path: '/srv/projects',
    })
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] })
    expect(unwrap(await b.request('app.pickFolder', {}))).toEqual({ path: null })
  })

  it('the model file picker: GGUF files first; a cancelled picker answers null', async () => {
    const b = await open(true)
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/m/q.gguf'] })
    expect(unwrap(await b.request('app.pickModelFile', {}))).toEqual({ path: '/m/q.gguf' })
    const options = dialog.showOpenDialog.mock.calls.at(-1)!.at(-1) as {
      properties: string[]
      filters: { extensions: string[] }[]
    }
    expect(options.properties).toContain('openFile')
    expect(options.filters[0]?.extensions).toEqual(['gguf'])
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] })
    expect(unwrap(await b.request('app.pickModelFile', {}))).toEqual({ path: null })
  })

  it('writes the content where the user chose, with the suggested name and a filter', async () => {
    const b = await open(true)
    const target = join(dir, 'chosen.md')
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target })
    const content = '# Title\n\nnaïve café — 漢字\n'
    expect(
      unwrap(await b.request('app.saveFile', { filename: '../../etc/My chat.md', content })),
    ).toEqual({ path: target })
    expect(readFileSync(target, 'utf8')).toBe(content)
    const options = dialog.showSaveDialog.mock.calls[0]![0] as {
      defaultPath: string
      filters: { extensions: string[] }[]
    }
    // the page names a file, never a folder
    expect(options.defaultPath).toBe('My chat.md')
    expect(options.filters[0]!.extensions).toEqual(['md'])
  })

  it('a cancelled save writes nothing; a folder that cannot be written says so', async () => {
    const b = await open(true)
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' })
    expect(unwrap(await b.request('app.saveFile', { filename: 'a.json', content: '{}' }))).toEqual({
      path: null,
    })
    // a "folder" that is a file: nothing can be written under it (root included)
    writeFileSync(join(dir, 'a-file'), '')
    const missing = join(dir, 'a-file', 'a.json')
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: missing })
    const r = await b.request('app.saveFile', { filename: 'a.json', content: '{}' })
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect(r.ok ? '' : r.error.message).toContain(missing)
  })

  it('browser mode has no system dialogs: unavailable, and nothing is shown', async () => {
    const b = await open(false)
    expect(await b.request('app.pickFolder', {})).toMatchObject({
      ok: false,
      error: { code: 'unavailable' },
    })
    expect(await b.request('app.saveFile', { filename: 'a.md', content: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'unavailable' },
    })
    expect(await b.request('app.pickModelFile', {})).toMatchObject({
      ok: false,
      error: { code: 'unavailable' },
    })
    expect(dialog.showOpenDialog).not.toHaveBeenCalled()
    expect(dialog.showSaveDialog).not.toHaveBeenCalled()
  })
})

describe('suggested names', () => {
  it('keeps only a plain file name', () => {
    expect(safeFilename('a/b\\c.md')).toBe('c.md')
    expect(safeFilename('..')).toBe('export')
    expect(safeFilename('.hidden.json')).toBe('hidden.json')
    expect(safeFilename('what?<x>.md')).toBe('what__x_.md')
    expect(filtersFor('x.json')![0]).toEqual({ name: 'JSON', extensions: ['json'] })
    expect(filtersFor('noext')).toEqual([])
  })
})
