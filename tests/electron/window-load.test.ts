/** The window when our page does not load: an error page, shown, instead of a hidden window. */
import { describe, expect, it, vi } from 'vitest'
import type { BrowserWindow as ElectronWindow } from 'electron'
import { loadErrorPage, loadMainPage } from '../../src-main/electron/window'
import { BrowserWindow } from './electron-mock'
import { start, useAppHarness } from './app-harness'

vi.mock('electron', () => import('./electron-mock'))
useAppHarness()

const URL_ = 'app://cairn/index.html'
const decode = (dataUrl: string): string => {
  expect(dataUrl.startsWith('data:text/html;charset=utf-8,')).toBe(true)
  return decodeURIComponent(dataUrl.slice(dataUrl.indexOf(',') + 1))
}
const chromiumError = (code: string, errno: number) =>
  Object.assign(new Error(`${code} (${errno}) loading '${URL_}'`), { code, errno })

function fakeWindow() {
  const win = new BrowserWindow({ show: false })
  return { win, asElectron: win as unknown as ElectronWindow, load: win.webContents.loadURL }
}

describe('the load error page', () => {
  it('says what failed, runs no script, and links back to our page', () => {
    const html = decode(loadErrorPage('ERR_FILE_NOT_FOUND (-6)', URL_))
    expect(html).toContain('Cairn could not open its window')
    expect(html).toContain('ERR_FILE_NOT_FOUND (-6)')
    expect(html).toContain(`<a href="${URL_}">Try again</a>`)
    expect(html).toMatch(
      /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/,
    )
    expect(html).not.toMatch(/<script/i)
  })

  it('shows a hostile reason or address as text', () => {
    const html = decode(loadErrorPage('<script>alert(1)</script>', 'http://x/"><img src=x>'))
    expect(html).not.toMatch(/<script|<img/i)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('href="http://x/&quot;&gt;&lt;img src=x&gt;"')
  })
})

describe('loading the main page', () => {
  it('leaves the window to ready-to-show when the page loads', async () => {
    const { win, asElectron, load } = fakeWindow()
    const warn = vi.fn()
    await loadMainPage(asElectron, URL_, warn)
    expect(load.mock.calls).toEqual([[URL_]])
    expect(win.show).not.toHaveBeenCalled()
    expect(warn).not.toHaveBeenCalled()
  })

  it('shows the window with the error page when loadURL rejects', async () => {
    const { win, asElectron, load } = fakeWindow()
    load.mockRejectedValueOnce(chromiumError('ERR_FILE_NOT_FOUND', -6))
    const warn = vi.fn()
    await loadMainPage(asElectron, URL_, warn)
    expect(win.show).toHaveBeenCalledTimes(1)
    expect(load).toHaveBeenCalledTimes(2)
    expect(decode(load.mock.calls[1]![0])).toContain('ERR_FILE_NOT_FOUND (-6)')
    expect(warn.mock.calls[0]![0]).toMatch(
      /Could not load the window \(app:\/\/cairn\/index\.html\)/,
    )
  })

  it('shows it once when the main frame fails (did-fail-load, then the rejection)', async () => {
    const { win, asElectron, load } = fakeWindow()
    let reject: (e: Error) => void = () => {}
    load.mockImplementationOnce(() => new Promise<void>((_r, j) => (reject = j)))
    const loading = loadMainPage(asElectron, URL_, vi.fn())
    const fail = (code: number, main: boolean) =>
      win.webContents.emit('did-fail-load', {}, code, 'ERR_X', URL_, main)
    fail(-2, false) // a sub-frame: not our page
    fail(-3, true) // aborted by a newer load: not a failure
    expect(win.show).not.toHaveBeenCalled()
    fail(-102, true)
    expect(win.show).toHaveBeenCalledTimes(1)
    expect(decode(load.mock.calls[1]![0])).toContain('ERR_X (-102)')
    reject(chromiumError('ERR_CONNECTION_REFUSED', -102))
    await loading
    fail(-102, true) // the error page's own failure does not loop
    expect(win.show).toHaveBeenCalledTimes(1)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('ignores an aborted load (another load replaced it)', async () => {
    const { win, asElectron, load } = fakeWindow()
    load.mockRejectedValueOnce(chromiumError('ERR_ABORTED', -3))
    await loadMainPage(asElectron, URL_, vi.fn())
    expect(win.show).not.toHaveBeenCalled()
  })

  it('is what the desktop app does with its window', async () => {
    const { win } = await start()
    expect(win!.show).not.toHaveBeenCalled()
    win!.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', URL_, true)
    expect(win!.show).toHaveBeenCalledTimes(1)
    const calls = win!.webContents.loadURL.mock.calls.map((c) => c[0])
    expect(calls[0]).toBe(URL_)
    expect(decode(calls[1]!)).toContain('ERR_FILE_NOT_FOUND (-6)')
  })
})
