// @vitest-environment jsdom
/**
 * The desktop platform over the preload's bridge: exports and the folder picker go to the
 * main process's system dialogs (the `app.*` routes), events reach every listener once.
 */
import { describe, expect, it } from 'vitest'
import type { CairnBridge } from '../../src-preload/contract/bridge'
import type { RouteName } from '../../src-preload/contract/routes'
import { desktopPlatform } from '../../src-renderer/src/platform/desktop'

function preload(answers: Partial<Record<RouteName, unknown>>) {
  const sent: { route: string; input: unknown }[] = []
  const bridge = {
    request: async (route: RouteName, input: unknown) => {
      sent.push({ route, input })
      const a = answers[route]
      return a instanceof Error
        ? { ok: false, error: { code: 'unavailable', message: a.message } }
        : { ok: true, data: a }
    },
    on: () => {},
    off: () => {},
  } as unknown as CairnBridge
  return { bridge, sent }
}

describe('the desktop platform', () => {
  it('saves an export through the system save dialog and answers where it went', async () => {
    const p = preload({ 'app.saveFile': { path: '/home/me/chat.md' } })
    const platform = desktopPlatform(p.bridge)
    await expect(platform.saveFile('chat.md', 'text/markdown', '# hi')).resolves.toBe(
      '/home/me/chat.md',
    )
    expect(p.sent).toEqual([
      { route: 'app.saveFile', input: { filename: 'chat.md', content: '# hi' } },
    ])
  })

  it('a cancelled dialog answers null; a failed save rejects with its reason', async () => {
    const cancelled = desktopPlatform(preload({ 'app.saveFile': { path: null } }).bridge)
    await expect(cancelled.saveFile('a.json', 'application/json', '{}')).resolves.toBeNull()
    const failing = desktopPlatform(
      preload({ 'app.saveFile': new Error('Could not save /x/a.json: EACCES') }).bridge,
    )
    await expect(failing.saveFile('a.json', 'application/json', '{}')).rejects.toThrow(
      'Could not save /x/a.json: EACCES',
    )
  })

  it('has a folder picker, which asks the main process with a title', async () => {
    const p = preload({ 'app.pickFolder': { path: '/srv/work' } })
    const platform = desktopPlatform(p.bridge)
    expect(platform.pickFolder).toBeTypeOf('function')
    await expect(platform.pickFolder!('Choose the default workspace folder')).resolves.toBe(
      '/srv/work',
    )
    expect(p.sent).toEqual([
      { route: 'app.pickFolder', input: { title: 'Choose the default workspace folder' } },
    ])
  })
})
