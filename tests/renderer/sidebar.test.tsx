// @vitest-environment jsdom
import { act, cleanup, render, renderHook, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { VirtuosoMockContext } from 'react-virtuoso'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SearchHit, SessionRecord } from '../../src-preload/contract/dto'
import { groupHits } from '../../src-renderer/src/features/sessions/group-hits'
import { Sidebar } from '../../src-renderer/src/features/sessions/Sidebar'
import { Snippet, snippetParts } from '../../src-renderer/src/features/sessions/snippet'
import { startNewChat } from '../../src-renderer/src/features/sessions/start'
import {
  UNDO_MS,
  usePendingDelete,
} from '../../src-renderer/src/features/sessions/use-pending-delete'
import { createAppEnv } from '../../src-renderer/src/state/app-env'
import { AppProviders } from '../../src-renderer/src/state/context'
import { renderWithApp } from './support/render-app'
import { createTestPlatform, manualFrames } from './support/test-platform'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

function session(id: string, updatedAt: number, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
    title: `Chat ${id}`,
    createdAt: 1,
    updatedAt,
    provider: null,
    model: null,
    workspace: null,
    systemPrompt: null,
    todos: [],
    usage: { inputTokens: 0, outputTokens: 0, estimated: false },
    pinned: false,
    archived: false,
    messageCount: 2,
    ...extra,
  } as SessionRecord
}

const hit = (sessionId: string, messageId: string | null, snippet: string): SearchHit => ({
  sessionId,
  sessionTitle: `Chat ${sessionId}`,
  messageId,
  seq: messageId ? 1 : null,
  role: messageId ? 'assistant' : null,
  snippet,
  createdAt: 1,
})

const M = (s: string): string => `\u0002${s}\u0003`

describe('snippets', () => {
  it('splits at the markers; the text is never HTML', () => {
    expect(snippetParts(`a ${M('b')} c`)).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c', match: false },
    ])
    const { container } = render(<Snippet text={`<img src=x onerror=alert(1)> ${M('[b]')}`} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('mark')?.textContent).toBe('[b]')
    expect(container.textContent).toBe('<img src=x onerror=alert(1)> [b]')
  })

  it('groups hits by chat in the order they came', () => {
    const g = groupHits([
      hit('a', 'm1', 'x'),
      hit('b', 'm2', 'y'),
      hit('a', null, 't'),
      hit('a', 'm3', 'z'),
    ])
    expect(g.map((x) => [x.sessionId, x.titleSnippet, x.hits.map((h) => h.messageId)])).toEqual([
      ['a', 't', ['m1', 'm3']],
      ['b', null, ['m2']],
    ])
  })
})

describe('the sidebar', () => {
  it('reopens the most recently active chat on start (not the pinned one above it)', async () => {
    const app = renderWithApp(<Sidebar />, {
      'sessions.list': () => ({
        sessions: [session('old', 10, { pinned: true }), session('recent', 50), session('x', 40)],
        total: 3,
      }),
    })
    await waitFor(() => expect(app.env.live.getState().currentId).toBe('recent'))
  })

  it('an export saved through the system dialog says where it went; a failure says why', async () => {
    const saves: string[] = []
    let result: () => Promise<string | null> = async () => '/home/me/Chat a.md'
    // jsdom has no layout: tell the virtualized list how big things are
    renderWithApp(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 40 }}>
        <Sidebar />
      </VirtuosoMockContext.Provider>,
      {
        'sessions.list': () => ({ sessions: [session('a', 50)], total: 1 }),
        'sessions.export': ({ id, format }) => ({
          filename: `${id}.${format}`,
          mimeType: 'text/markdown',
          content: `# ${id}`,
          files: [],
        }),
      },
      { saveFile: (name) => (saves.push(name), result()) },
    )
    const user = userEvent.setup()
    const exportMd = async (): Promise<void> => {
      await user.click(await screen.findByRole('button', { name: 'Actions for Chat a' }))
      await user.click(screen.getByRole('menuitem', { name: 'Export as Markdown' }))
    }
    await exportMd()
    const status = await screen.findByText('Exported to /home/me/Chat a.md')
    expect(status.closest('[role="status"]')).toBeTruthy()
    expect(saves).toEqual(['a.md'])
    await user.click(
      within(status.closest('.toast') as HTMLElement).getByRole('button', { name: 'Dismiss' }),
    )
    expect(screen.queryByText(/Exported to/)).toBeNull()
    // cancelled: nothing to say
    result = async () => null
    await exportMd()
    await waitFor(() => expect(saves).toHaveLength(2))
    expect(screen.queryByText(/Exported to/)).toBeNull()
    result = async () => {
      throw new Error('Could not save /x/a.md: EACCES')
    }
    await exportMd()
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not export: Could not save /x/a.md: EACCES',
    )
  })

  it('does not when the user asked for a new chat first', async () => {
    let answer: (v: { sessions: SessionRecord[]; total: number }) => void = () => {}
    const app = renderWithApp(<Sidebar />, {
      'sessions.list': () => new Promise((r) => (answer = r)),
    })
    startNewChat(app.env)
    await act(async () => answer({ sessions: [session('recent', 50)], total: 1 }))
    await waitFor(() =>
      expect(app.platform.requests.some((r) => r.route === 'sessions.list')).toBe(true),
    )
    expect(app.env.live.getState().currentId).toBeNull()
  })

  it('searches as you type, groups results by chat, opens a hit at its message, Esc clears', async () => {
    const app = renderWithApp(<Sidebar />, {
      'sessions.list': () => ({ sessions: [], total: 0 }),
      'sessions.get': ({ id }) => ({ session: session(id, 1), messages: [], hasMore: false }),
      'sessions.search': ({ query }) => ({
        hits: [
          hit('a', null, M(query)),
          ...['m1', 'm2', 'm3', 'm4', 'm5'].map((m) => hit('a', m, `one ${M(query)} ${m}`)),
          hit('b', 'm9', `two ${M(query)}`),
        ],
      }),
    })
    const user = userEvent.setup()
    const box = screen.getByRole('searchbox', { name: 'Search' })
    await user.type(box, 'granite')
    const list = await screen.findByRole('list', { name: 'Search results' })
    await waitFor(() => expect(within(list).getAllByText('granite').length).toBeGreaterThan(0))
    // the last query sent is the whole word; typing fast did not send every letter
    const sent = app.platform.requests.filter((r) => r.route === 'sessions.search')
    expect(sent.at(-1)?.input).toMatchObject({ query: 'granite' })
    expect(sent.length).toBeLessThan(7)
    // chat a once, three of its five hits, and "2 more"
    expect(within(list).getAllByRole('button', { name: /one\s*granite/ })).toHaveLength(3)
    await user.click(within(list).getByRole('button', { name: '2 more in this chat' }))
    expect(within(list).getAllByRole('button', { name: /one\s*granite/ })).toHaveLength(5)
    expect(list.querySelectorAll('mark').length).toBeGreaterThan(5)

    await user.click(within(list).getByRole('button', { name: /two\s*granite/ }))
    expect(app.env.nav.getState().target).toEqual({ sessionId: 'b', messageId: 'm9' })
    expect(app.env.live.getState().currentId).toBe('b')

    await user.click(box)
    await user.keyboard('{Escape}')
    expect((box as HTMLInputElement).value).toBe('')
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull()
  })

  it('Ctrl/Cmd+K focuses the search box (through the nav store)', async () => {
    const app = renderWithApp(<Sidebar />, { 'sessions.list': () => ({ sessions: [], total: 0 }) })
    act(() => app.env.nav.getState().focusSearch())
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search' })),
    )
  })
})

describe('delete with Undo', () => {
  function harness() {
    const platform = createTestPlatform({ 'sessions.delete': () => ({ deleted: true }) })
    const env = createAppEnv(platform, { scheduler: manualFrames() })
    const wrapper = ({ children }: { children: ReactNode }) => (
      <AppProviders env={env}>{children}</AppProviders>
    )
    const deletes = () => platform.requests.filter((r) => r.route === 'sessions.delete')
    return { env, deletes, ...renderHook(() => usePendingDelete(), { wrapper }) }
  }

  it('Undo deletes nothing; otherwise the chat is deleted when the time runs out', async () => {
    vi.useFakeTimers()
    const h = harness()
    act(() => h.result.current.remove({ id: 's1', title: 'One' }))
    expect(h.result.current.pending?.id).toBe('s1')
    act(() => h.result.current.undo())
    await act(async () => void vi.advanceTimersByTime(UNDO_MS * 2))
    expect(h.deletes()).toEqual([])

    act(() => h.result.current.remove({ id: 's2', title: 'Two' }))
    await act(async () => void vi.advanceTimersByTime(UNDO_MS - 100))
    expect(h.deletes()).toEqual([])
    await act(async () => void vi.advanceTimersByTime(200))
    expect(h.deletes().map((r) => r.input)).toEqual([{ id: 's2' }])
    expect(h.result.current.pending).toBeNull()
  })

  it('closing the window deletes at once', () => {
    const h = harness()
    act(() => h.result.current.remove({ id: 's3', title: 'Three' }))
    act(() => void window.dispatchEvent(new Event('pagehide')))
    expect(h.deletes().map((r) => r.input)).toEqual([{ id: 's3' }])
  })
})
