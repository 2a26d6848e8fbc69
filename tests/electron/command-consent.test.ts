/** The desktop app's native dialog before an MCP server's command runs. */
import type { BrowserWindow, MessageBoxOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { consentMessage, nativeCommandConsent } from '../../src-main/electron/command-consent'

const request = {
  server: 'files',
  command: '/usr/bin/npx',
  args: ['-y', '@scope/server files', "it's"],
  envNames: ['API_TOKEN', 'DEBUG'],
  cwd: '/srv/data',
}

function fakeDialog(response: number) {
  const shown: { win: BrowserWindow | null; options: MessageBoxOptions }[] = []
  const dialog = {
    showMessageBox: async (a: BrowserWindow | MessageBoxOptions, b?: MessageBoxOptions) => {
      shown.push(
        b
          ? { win: a as BrowserWindow, options: b }
          : { win: null, options: a as MessageBoxOptions },
      )
      return { response }
    },
  }
  return { dialog, shown }
}

describe('the native consent dialog', () => {
  it('shows the program, every argument, the variable names and the folder; Cancel is the default', () => {
    const m = consentMessage(request)
    expect(m.message).toContain('"files"')
    expect(m.detail).toBe(
      [
        'Program: /usr/bin/npx',
        'Arguments:',
        '  "-y"',
        '  "@scope/server files"',
        `  "it's"`,
        'Environment variables: API_TOKEN, DEBUG',
        'Working folder: /srv/data',
      ].join('\n'),
    )
    expect(m.buttons).toEqual(['Start server', 'Cancel'])
    expect(m.defaultId).toBe(1)
    expect(m.cancelId).toBe(1)
  })

  it('"Start server" allows, anything else refuses; the dialog belongs to the window', async () => {
    const win = {} as BrowserWindow
    const yes = fakeDialog(0)
    expect(await nativeCommandConsent(yes.dialog, () => win)(request)).toBe(true)
    expect(yes.shown[0]?.win).toBe(win)
    const no = fakeDialog(1)
    expect(await nativeCommandConsent(no.dialog, () => null)(request)).toBe(false)
    expect(no.shown[0]?.win).toBeNull()
  })
})
