// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionRecord } from '../../src-preload/contract/dto'
import { ChatHeader } from '../../src-renderer/src/screens/chat/ChatHeader'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { assistant, assistantsHost } from './support/assistants-host'
import { renderWithApp } from './support/render-app'
import { sessionRecord } from './support/session-record'
import { RouteFailure, type Handlers } from './support/test-platform'

afterEach(cleanup)
beforeEach(() => localStorage.clear())

const record = (assistant: SessionRecord['assistant']): SessionRecord =>
  sessionRecord({ id: 's1', title: 'A chat', provider: 'p', model: 'm', assistant })

/** a new chat: the header and the message box (its first message makes the chat s1) */
const renderNewChat = (handlers: Handlers): ReturnType<typeof renderWithApp> =>
  renderWithApp(
    <>
      <ChatHeader />
      <Composer />
    </>,
    { 'chat.send': () => ({ sessionId: 's1', turnId: 't1' }), ...handlers },
  )

/** `text` typed in the message box and sent; the first chat.send carries `input` */
async function sendsFirst(
  app: ReturnType<typeof renderWithApp>,
  user: ReturnType<typeof userEvent.setup>,
  text: string,
  input: unknown,
): Promise<void> {
  await user.type(screen.getByRole('textbox', { name: 'Message' }), `${text}{Enter}`)
  await waitFor(() =>
    expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toEqual(input),
  )
}

const picker = () => screen.getByRole('combobox', { name: 'Assistant' })

describe('the assistant picker', () => {
  it('in a new chat: the default is picked; another pick goes with the first message', async () => {
    const host = assistantsHost()
    const app = renderNewChat(host.handlers)
    const user = userEvent.setup()
    await waitFor(() => expect(picker()).toHaveProperty('value', 'default'))
    expect(screen.getByRole('option', { name: 'Default (default)' })).toBeTruthy()
    await user.selectOptions(picker(), 'chat')
    expect(app.platform.requests.some((r) => r.route === 'sessions.setAssistant')).toBe(false)
    await sendsFirst(app, user, 'Hello', { text: 'Hello', assistantId: 'chat' })
  })

  it('a new chat whose picked assistant was deleted meanwhile starts with the default', async () => {
    const host = assistantsHost()
    const app = renderNewChat(host.handlers)
    const user = userEvent.setup()
    await waitFor(() => expect(picker()).toHaveProperty('value', 'default'))
    await user.selectOptions(picker(), 'chat')
    host.handlers['assistants.delete']!({ id: 'chat' })
    await act(() => app.env.client.invalidateQueries({ queryKey: ['assistants'] }))
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Chat' })).toBeNull())
    expect(picker()).toHaveProperty('value', 'default')
    await sendsFirst(app, user, 'Hi', { text: 'Hi', assistantId: 'default' })
  })

  it('in a new chat, the model shown is the picked assistant’s own, when it has one', async () => {
    const host = assistantsHost([
      assistant('default', { name: 'Default' }, 'default'),
      assistant('coder', { name: 'Coder', model: 'm-large' }),
    ])
    renderNewChat(host.handlers)
    const user = userEvent.setup()
    const model = screen.getByRole('combobox', { name: 'Model' })
    await waitFor(() => expect(model).toHaveProperty('value', 'm'))
    await user.selectOptions(picker(), 'coder')
    await waitFor(() => expect(model).toHaveProperty('value', 'm-large'))
  })

  it('in a chat: shows its assistant (a deleted one too), switches it, and says a running turn keeps its own', async () => {
    let current = record({ id: 'gone', name: 'Retired' })
    const host = assistantsHost()
    let refuse = false
    const app = renderWithApp(<ChatHeader />, {
      ...host.handlers,
      'sessions.get': () => ({ session: current, messages: [], hasMore: false }),
      'sessions.setAssistant': ({ assistantId }) => {
        if (refuse) throw new RouteFailure('not_found', 'There is no such assistant.')
        current = record({ id: assistantId, name: assistantId === 'chat' ? 'Chat' : 'Default' })
        return current
      },
    })
    act(() => app.env.live.getState().open('s1'))
    await waitFor(() => expect(picker()).toHaveProperty('value', 'gone'))
    expect(screen.getByRole('option', { name: 'Retired (deleted)' })).toBeTruthy()

    // a turn is running: the switch is made and the header says when it applies
    act(() => app.env.live.setState({ running: { s1: 't1' } }))
    const user = userEvent.setup()
    await user.selectOptions(picker(), 'chat')
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'sessions.setAssistant')?.input).toEqual(
        { id: 's1', assistantId: 'chat' },
      ),
    )
    expect(await screen.findByText('Applies from the next turn')).toBeTruthy()
    expect(picker()).toHaveProperty('value', 'chat')
    act(() => app.env.live.setState({ running: {} }))
    await waitFor(() => expect(screen.queryByText('Applies from the next turn')).toBeNull())

    refuse = true
    await user.selectOptions(picker(), 'default')
    expect(await screen.findByText('Not switched: There is no such assistant.')).toBeTruthy()
    expect(picker()).toHaveProperty('value', 'chat')
  })

  it('a session that says its assistant was deleted shows it so, once, even while the list still has it', async () => {
    const host = assistantsHost()
    const app = renderWithApp(<ChatHeader />, {
      ...host.handlers,
      'sessions.get': () => ({
        session: record({ id: 'chat', name: 'Chat', deleted: true }),
        messages: [],
        hasMore: false,
      }),
    })
    act(() => app.env.live.getState().open('s1'))
    await waitFor(() => expect(picker()).toHaveProperty('value', 'chat'))
    expect(screen.getByRole('option', { name: 'Chat (deleted)' })).toBeTruthy()
    expect(screen.queryByRole('option', { name: 'Chat' })).toBeNull()
  })

  it('is not there while the host lists no assistants', async () => {
    const app = renderWithApp(<ChatHeader />, {
      'assistants.list': () => {
        throw new RouteFailure('unavailable', 'Assistants are not stored yet in this version.')
      },
    })
    await waitFor(() =>
      expect(app.platform.requests.some((r) => r.route === 'assistants.list')).toBe(true),
    )
    expect(screen.queryByRole('combobox', { name: 'Assistant' })).toBeNull()
    expect(screen.getByRole('heading', { name: 'New chat' })).toBeTruthy()
  })
})
