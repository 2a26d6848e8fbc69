// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { VoiceStatus } from '../../src-preload/contract/voice'
import { ChatComposer } from '../../src-renderer/src/screens/chat/ChatComposer'
import { RouteFailure } from './support/test-platform'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

const idle: VoiceStatus = {
  listening: false,
  server: null,
  source: null,
  sessionId: null,
  queued: [],
  error: null,
}
const listening = (over: Partial<VoiceStatus> = {}): VoiceStatus => ({
  ...idle,
  listening: true,
  server: 'stt',
  ...over,
})
const mic = () => screen.getByRole('button', { name: 'Voice input' })
const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
const compose = () => screen.getByRole('form', { name: 'Compose' })

describe('voice input in the composer', () => {
  it('the microphone starts listening for this chat, shows it, and stops', async () => {
    const app = renderWithApp(<ChatComposer />, {
      'voice.status': () => idle,
      'voice.start': (input) => listening({ sessionId: input.sessionId ?? null }),
      'voice.stop': () => idle,
    })
    const user = userEvent.setup()
    await waitFor(() => expect(mic().getAttribute('aria-pressed')).toBe('false'))
    expect(screen.queryByText(/Listening/)).toBeNull()
    await user.click(mic())
    await waitFor(() => expect(mic().getAttribute('aria-pressed')).toBe('true'))
    expect(
      within(compose())
        .getByText(/Listening \(stt\)/)
        .getAttribute('role'),
    ).toBe('status')
    expect(app.platform.requests.find((r) => r.route === 'voice.start')?.input).toEqual({
      sessionId: null,
    })
    await user.click(mic())
    await waitFor(() => expect(mic().getAttribute('aria-pressed')).toBe('false'))
    expect(screen.queryByText(/Listening/)).toBeNull()
    expect(app.platform.requests.map((r) => r.route)).toContain('voice.stop')
  })

  it('shows the partial text live in the composer, as text; a final sent in a new chat opens it', async () => {
    const app = renderWithApp(<ChatComposer />, { 'voice.status': () => listening() })
    await waitFor(() => expect(mic().getAttribute('aria-pressed')).toBe('true'))
    act(() => app.platform.emit('voice', { type: 'partial', text: 'What is', sessionId: null }))
    expect(within(compose()).getByLabelText('Heard so far').textContent).toBe('What is')
    act(() =>
      app.platform.emit('voice', { type: 'partial', text: '<b>What</b> is a', sessionId: null }),
    )
    const heard = within(compose()).getByLabelText('Heard so far')
    expect(heard.textContent).toBe('<b>What</b> is a')
    expect(heard.querySelector('b')).toBeNull()
    act(() =>
      app.platform.emit('voice', {
        type: 'final',
        text: 'What is a cairn?',
        disposition: 'sent',
        sessionId: 's1',
        turnId: 't1',
      }),
    )
    expect(within(compose()).queryByLabelText('Heard so far')).toBeNull()
    expect(app.env.live.getState().currentId).toBe('s1')
  })

  it('lists the finals queued behind the running answer, and drops them when the host does', async () => {
    const app = renderWithApp(<ChatComposer />, {
      'voice.status': () => listening({ sessionId: null }),
    })
    await waitFor(() => expect(mic().getAttribute('aria-pressed')).toBe('true'))
    act(() =>
      app.platform.emit('voice', {
        type: 'status',
        status: listening({ queued: ['Second.', 'Third.'] }),
      }),
    )
    const list = screen.getByRole('list', { name: 'Queued voice messages' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Second.', 'Third.'])
    act(() => app.platform.emit('voice', { type: 'status', status: listening({ queued: [] }) }))
    expect(screen.queryByRole('list', { name: 'Queued voice messages' })).toBeNull()
  })

  it('leaves a final in the box when the settings say so', async () => {
    const app = renderWithApp(<ChatComposer />, { 'voice.status': () => listening() })
    const user = userEvent.setup()
    await user.type(box(), 'Note:')
    act(() =>
      app.platform.emit('voice', {
        type: 'final',
        text: 'buy stones',
        disposition: 'composer',
        sessionId: null,
      }),
    )
    expect(box().value).toBe('Note: buy stones')
    expect(app.platform.requests.map((r) => r.route)).not.toContain('chat.send')
  })

  it('says why voice input could not start, and why it stopped', async () => {
    const app = renderWithApp(<ChatComposer />, {
      'voice.status': () => idle,
      'voice.start': () => {
        throw new RouteFailure(
          'not_found',
          'No voice server: no running MCP server offers the tools.',
        )
      },
    })
    const user = userEvent.setup()
    await waitFor(() => expect(mic().getAttribute('aria-pressed')).toBe('false'))
    await user.click(mic())
    expect((await screen.findByRole('alert')).textContent).toMatch(/No voice server/)
    expect(mic().getAttribute('aria-pressed')).toBe('false')
    act(() =>
      app.platform.emit('voice', {
        type: 'status',
        status: { ...idle, error: 'Voice input stopped: the voice server "stt" failed (gone).' },
      }),
    )
    expect(screen.getByRole('alert').textContent).toMatch(/the voice server "stt" failed/)
  })
})
