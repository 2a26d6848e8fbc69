/** Which program opens a login address: BROWSER when set (with "%s" and ":" lists), else the system's. */
import { describe, expect, it } from 'vitest'
import { browserCommands, openInBrowser } from '../../src-main/adapters/mcp/browser-opener'

const url = 'https://auth.example.com/authorize?a=1&b=2'

describe('the browser opener', () => {
  it('runs BROWSER with the address, in place of %s, trying each of a ":" list', () => {
    expect(browserCommands(url, { BROWSER: 'firefox' }, 'linux')).toEqual([['firefox', [url]]])
    expect(browserCommands(url, { BROWSER: 'chromium --new-window %s' }, 'linux')).toEqual([
      ['chromium', ['--new-window', url]],
    ])
    expect(browserCommands(url, { BROWSER: 'w3m:lynx' }, 'linux')).toEqual([
      ['w3m', [url]],
      ['lynx', [url]],
    ])
  })

  it("uses the system's opener without BROWSER", () => {
    expect(browserCommands(url, {}, 'linux')).toEqual([['xdg-open', [url]]])
    expect(browserCommands(url, {}, 'darwin')).toEqual([['open', [url]]])
    expect(browserCommands(url, {}, 'win32')[0]?.[0]).toBe('cmd')
  })

  it('falls back to the next command, and says what it tried when none starts', async () => {
    const ran: string[] = []
    await openInBrowser(url, {
      purpose: 'login',
      env: { BROWSER: 'missing:works' },
      launcher: async (command) => {
        ran.push(command)
        if (command === 'missing') throw new Error('ENOENT')
      },
    })
    expect(ran).toEqual(['missing', 'works'])
    await expect(
      openInBrowser(url, {
        purpose: 'login',
        env: { BROWSER: 'nope' },
        launcher: async () => {
          throw new Error('ENOENT')
        },
      }),
    ).rejects.toThrow(/tried nope \(ENOENT\)/)
  })
})
