// @vitest-environment jsdom
/**
 * The window when Cairn's database is found damaged while it runs: one alert says what is
 * wrong and what to do, from a request or a turn that met it; "Start a new database…" asks
 * first (in the page in browser mode, in the desktop app's own dialog there) and says where
 * the damaged file went; a turn that could not store what it streamed stays on screen.
 */
import { QueryClient } from '@tanstack/react-query'
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { createAppEnv } from '../../src-renderer/src/state/app-env'
import { AppProviders } from '../../src-renderer/src/state/context'
import { createLiveStore } from '../../src-renderer/src/state/live-store'
import { DamagedDatabaseBanner } from '../../src-renderer/src/ui/DamagedDatabaseBanner'
import { renderWithApp } from './support/render-app'
import { createTestPlatform, manualFrames, settle } from './support/test-platform'

afterEach(cleanup)

const DAMAGE =
  'The database /data/cairn.db cannot be used: part of it is damaged (database disk image is malformed, SQLITE_CORRUPT).'
const damaged = {
  ok: false as const,
  error: { code: 'database_damaged' as const, message: DAMAGE },
}

function ev(e: Record<string, unknown>, seq: number): SequencedAgentEvent {
  return { sessionId: 'a', turnId: 't1', at: 0, seq, ...e } as SequencedAgentEvent
}

describe('the damaged-database alert', () => {
  it('appears when a request meets the damage; the page asks before a new database is started', async () => {
    const { env, platform } = renderWithApp(<DamagedDatabaseBanner />, {
      'sessions.list': () => damaged,
      'app.replaceDamagedDatabase': () => ({
        movedTo: '/data/cairn.db.damaged-20260101T000000000Z',
      }),
    })
    expect(screen.queryByRole('alert')).toBeNull()
    await act(async () => void (await env.bridge.request('sessions.list', {})))
    const alert = screen.getByRole('alert', { name: 'Cairn’s database is damaged' })
    expect(alert.textContent).toContain(DAMAGE)

    await userEvent.click(screen.getByRole('button', { name: 'Start a new database…' }))
    expect(platform.requests.map((r) => r.route)).not.toContain('app.replaceDamagedDatabase')
    expect(screen.getByRole('alert').textContent).toMatch(/no longer listed; the file is kept/)
    await userEvent.click(screen.getByRole('button', { name: 'Start a new database' }))
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'moved to /data/cairn.db.damaged-20260101T000000000Z',
      ),
    )
    expect(platform.requests.filter((r) => r.route === 'app.replaceDamagedDatabase')).toHaveLength(
      1,
    )
  })

  it('Cancel asks nothing of the host', async () => {
    const { env, platform } = renderWithApp(<DamagedDatabaseBanner />, {
      'sessions.list': () => damaged,
    })
    await act(async () => void (await env.bridge.request('sessions.list', {})))
    await userEvent.click(screen.getByRole('button', { name: 'Start a new database…' }))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(platform.requests.map((r) => r.route)).not.toContain('app.replaceDamagedDatabase')
    expect(screen.getByRole('button', { name: 'Start a new database…' })).toBeTruthy()
  })

  it('in the desktop app the host asks in its own dialog: a no leaves the alert as it was', async () => {
    const platform = createTestPlatform({
      'app.replaceDamagedDatabase': () => ({ movedTo: null }),
    })
    platform.kind = 'desktop'
    const env = createAppEnv(platform, { scheduler: manualFrames() })
    render(
      <AppProviders env={env}>
        <DamagedDatabaseBanner />
      </AppProviders>,
    )
    // a turn that ended on the damage says it too
    act(() =>
      platform.emit('agent', ev({ type: 'turn_end', reason: 'error', error: damaged.error }, 0)),
    )
    expect(screen.getByRole('alert').textContent).toContain(DAMAGE)
    await userEvent.click(screen.getByRole('button', { name: 'Start a new database…' }))
    await waitFor(() =>
      expect(platform.requests.map((r) => r.route)).toContain('app.replaceDamagedDatabase'),
    )
    // no question in the page: the host asked; it said no, so nothing moved
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull()
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Start a new database…' }) as HTMLButtonElement)
          .disabled,
      ).toBe(false),
    )
    expect(screen.getByRole('alert').textContent).not.toMatch(/moved to/)
  })
})

describe('a turn that could not store what it streamed', () => {
  it('stays on screen after the stored messages are loaded again', async () => {
    const userMessage = {
      id: 'u1',
      sessionId: 'a',
      seq: 1,
      turnId: 't1',
      kind: 'message',
      role: 'user',
      content: 'go on',
    } as StoredMessage
    const platform = createTestPlatform({
      'sessions.get': () => ({
        session: { id: 'a', title: 'a' } as never,
        messages: [userMessage],
        hasMore: false,
      }),
    })
    const frames = manualFrames()
    const store = createLiveStore(platform, new QueryClient(), { scheduler: frames })
    await settle()
    store.getState().open('a')
    await settle()
    platform.emit('agent', ev({ type: 'turn_start', model: 'm', provider: 'p' }, 0))
    platform.emit(
      'agent',
      ev(
        { type: 'message_saved', messageId: 'u1', messageSeq: 1, role: 'user', status: 'complete' },
        1,
      ),
    )
    platform.emit('agent', ev({ type: 'text_delta', text: 'an answer that was not stored' }, 2))
    platform.emit('agent', ev({ type: 'turn_end', reason: 'error', error: damaged.error }, 3))
    frames.run()
    await settle()
    await settle()
    const turn = store.getState().sessions['a']?.turn
    expect(turn?.items[0]).toMatchObject({ kind: 'answer', text: 'an answer that was not stored' })
    expect(turn?.error?.code).toBe('database_damaged')
  })
})
