// @vitest-environment jsdom
/**
 * Settings › General › "Quick ask and tray" (the desktop app only): the shortcut changed,
 * refused when another app holds it (the typed text stays, the old one is kept), switched
 * off, said when it was held at start; keep in tray switched.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { DesktopStatus } from '../../src-preload/contract/desktop'
import { QuickAskForm } from '../../src-renderer/src/features/settings/QuickAskForm'
import { renderWithApp } from './support/render-app'
import { RouteFailure, type Handlers } from './support/test-platform'

afterEach(cleanup)

function shell(start: Partial<DesktopStatus['quickAsk']> = {}, heldByOthers: string[] = []) {
  const state: DesktopStatus = {
    quickAsk: { shortcut: 'Alt+Space', registered: true, defaultShortcut: 'Alt+Space', ...start },
    closeToTray: null,
  }
  const handlers: Handlers = {
    'desktop.status': () => structuredClone(state),
    'desktop.setQuickAskShortcut': ({ shortcut }) => {
      if (shortcut && heldByOthers.includes(shortcut))
        throw new RouteFailure('shortcut_taken', `Another app already uses ${shortcut}.`, {
          shortcut,
        })
      state.quickAsk = { ...state.quickAsk, shortcut: shortcut ?? null, registered: !!shortcut }
      return structuredClone(state)
    },
    'desktop.setCloseToTray': ({ closeToTray }) => {
      state.closeToTray = closeToTray
      return structuredClone(state)
    },
  }
  return { state, handlers }
}

const group = () => screen.findByRole('group', { name: 'Quick ask and tray' })

describe('Settings › General › Quick ask and tray', () => {
  it('changes the shortcut', async () => {
    const { state, handlers } = shell()
    renderWithApp(<QuickAskForm />, handlers, { kind: 'desktop' })
    const user = userEvent.setup()
    const box = within(await group()).getByRole('textbox', { name: 'Quick ask shortcut' })
    expect(box).toHaveProperty('value', 'Alt+Space')
    await user.clear(box)
    await user.type(box, 'Ctrl+Shift+Space')
    await user.click(screen.getByRole('button', { name: 'Save shortcut' }))
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Saved.')
    expect(state.quickAsk.shortcut).toBe('Ctrl+Shift+Space')
  })

  it('says when another app holds the shortcut, and keeps what was typed', async () => {
    const { state, handlers } = shell({}, ['Ctrl+Alt+K'])
    renderWithApp(<QuickAskForm />, handlers, { kind: 'desktop' })
    const user = userEvent.setup()
    const box = within(await group()).getByRole('textbox', { name: 'Quick ask shortcut' })
    await user.clear(box)
    await user.type(box, 'Ctrl+Alt+K')
    await user.click(screen.getByRole('button', { name: 'Save shortcut' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain(
      'Another app already uses Ctrl+Alt+K, so Cairn cannot take it',
    )
    expect(box).toHaveProperty('value', 'Ctrl+Alt+K')
    expect(state.quickAsk.shortcut).toBe('Alt+Space')
  })

  it('switches the shortcut off and on again, and keep in tray', async () => {
    const { state, handlers } = shell()
    renderWithApp(<QuickAskForm />, handlers, { kind: 'desktop' })
    const user = userEvent.setup()
    const g = await group()
    const enabled = within(g).getByRole('checkbox', { name: /Open Quick ask from anywhere/ })
    await user.click(enabled)
    await waitFor(() => expect(state.quickAsk.shortcut).toBeNull())
    expect(enabled).toHaveProperty('checked', false)
    await user.click(enabled)
    await waitFor(() => expect(state.quickAsk.shortcut).toBe('Alt+Space'))
    await user.click(within(g).getByRole('checkbox', { name: /Keep Cairn in the tray/ }))
    await waitFor(() => expect(state.closeToTray).toBe(true))
  })

  it('says when another app held the shortcut at start', async () => {
    const { handlers } = shell({ registered: false })
    renderWithApp(<QuickAskForm />, handlers, { kind: 'desktop' })
    await group()
    expect(screen.getByRole('alert').textContent).toContain(
      'Another app held Alt+Space when Cairn started',
    )
  })

  it('is not there outside the desktop app', async () => {
    const { handlers } = shell()
    const { platform } = renderWithApp(<QuickAskForm />, handlers)
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.queryByRole('group', { name: 'Quick ask and tray' })).toBeNull()
    expect(platform.requests.filter((r) => r.route.startsWith('desktop.'))).toEqual([])
  })
})
