/** The desktop app shows a server's login address in a native dialog before the shell opens it. */
import type { BrowserWindow, MessageBoxOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { nativeLoginOpener } from '../../src-main/electron/login-opener'

function fakes(response: number) {
  const shown: MessageBoxOptions[] = []
  const opened: string[] = []
  const dialog = {
    showMessageBox: async (a: BrowserWindow | MessageBoxOptions, b?: MessageBoxOptions) => {
      shown.push(b ?? (a as MessageBoxOptions))
      return { response }
    },
  }
  const shell = { openExternal: async (url: string) => void opened.push(url) }
  return { dialog, shell, shown, opened }
}

const address = 'https://auth.example.com/authorize?client_id=c&state=s'

describe('the desktop login opener', () => {
  it('shows the whole address, then opens it in the browser', async () => {
    const f = fakes(0)
    const open = nativeLoginOpener(f.dialog, f.shell, () => null)
    expect(await open('linear', address)).toBe(true)
    expect(f.shown[0]?.message).toContain('"linear"')
    expect(f.shown[0]?.detail).toBe(address)
    expect(f.opened).toEqual([address])
  })

  it('opens nothing when the user cancels, or when the address is not http(s)', async () => {
    const cancelled = fakes(1)
    expect(
      await nativeLoginOpener(cancelled.dialog, cancelled.shell, () => null)('x', address),
    ).toBe(false)
    expect(cancelled.opened).toEqual([])
    const hostile = fakes(0)
    const open = nativeLoginOpener(hostile.dialog, hostile.shell, () => null)
    await expect(open('x', 'file:///etc/passwd')).rejects.toThrow(/only http and https/)
    expect(hostile.shown).toEqual([])
    expect(hostile.opened).toEqual([])
  })
})
