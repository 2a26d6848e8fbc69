// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { RouteFailure } from './support/test-platform'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

const box = () => screen.getByRole('textbox', { name: 'Message' })

describe('the composer', () => {
  it('Enter sends; Shift+Enter adds a line', async () => {
    const app = renderWithApp(<Composer />, {
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
    })
    const user = userEvent.setup()
    await waitFor(() => expect(document.activeElement).toBe(box()))
    await user.type(box(), 'two{Shift>}{Enter}{/Shift}lines')
    expect((box() as HTMLTextAreaElement).value).toBe('two\nlines')
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toEqual({
        text: 'two\nlines',
      }),
    )
    expect((box() as HTMLTextAreaElement).value).toBe('')
  })

  it('a message that cannot be sent stays in the box, with the reason beside it', async () => {
    renderWithApp(<Composer />, {
      'chat.send': () => {
        throw new RouteFailure('no_provider', 'No provider is set up: add one in the settings.')
      },
    })
    const user = userEvent.setup()
    await user.type(box(), 'Do not lose me{Enter}')
    await screen.findByText(/Not sent: No provider is set up/)
    expect((box() as HTMLTextAreaElement).value).toBe('Do not lose me')
    expect(box().getAttribute('aria-invalid')).toBe('true')
  })

  it('a send error about the provider offers its settings; other errors do not', async () => {
    let failure = new RouteFailure('no_model', 'No model is configured. Pass --model <name>.')
    const app = renderWithApp(<Composer />, {
      'chat.send': () => {
        throw failure
      },
    })
    const user = userEvent.setup()
    await user.type(box(), 'Hello{Enter}')
    await screen.findByText(/Not sent: No model is configured/)
    await user.click(screen.getByRole('button', { name: 'Open provider settings' }))
    expect(app.env.nav.getState()).toMatchObject({ view: 'settings', section: 'providers' })
    failure = new RouteFailure('conflict', 'A turn is already running in this chat.')
    await user.click(box())
    await user.keyboard('{Enter}')
    await screen.findByText(/Not sent: A turn is already running/)
    expect(screen.queryByRole('button', { name: 'Open provider settings' })).toBeNull()
  })

  it('the code decides the provider settings link, not the words of the message', async () => {
    let failure = new RouteFailure('busy', 'The provider, its API key and base URL are fine.')
    renderWithApp(<Composer />, {
      'chat.send': () => {
        throw failure
      },
    })
    const user = userEvent.setup()
    await user.type(box(), 'Hello{Enter}')
    await screen.findByText(/Not sent: The provider, its API key/)
    expect(screen.queryByRole('button', { name: 'Open provider settings' })).toBeNull()
    failure = new RouteFailure('auth', 'Rejected.')
    await user.click(box())
    await user.keyboard('{Enter}')
    await screen.findByText('Not sent: Rejected.')
    expect(screen.getByRole('button', { name: 'Open provider settings' })).toBeTruthy()
  })

  it('/help lists the commands; an unknown command says so and is not sent', async () => {
    const app = renderWithApp(<Composer />)
    const user = userEvent.setup()
    await user.type(box(), '/help{Enter}')
    expect(await screen.findByText('/model <name>')).toBeTruthy()
    await user.type(box(), '/frob{Enter}')
    expect(await screen.findByText(/There is no command \/frob/)).toBeTruthy()
    expect((box() as HTMLTextAreaElement).value).toBe('/frob')
    expect(app.platform.requests.some((r) => r.route === 'chat.send')).toBe(false)
  })

  it('/model with Tab completion picks the model the new chat will use', async () => {
    const app = renderWithApp(<Composer />, {
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
    })
    const user = userEvent.setup()
    await user.type(box(), '/model m-l')
    await waitFor(() =>
      expect(app.platform.requests.some((r) => r.route === 'providers.models')).toBe(true),
    )
    await user.keyboard('{Tab}')
    await waitFor(() => expect((box() as HTMLTextAreaElement).value).toBe('/model m-large'))
    await user.keyboard('{Enter}')
    await screen.findByText('This chat now uses m-large.')
    expect((screen.getByRole('combobox', { name: 'Model' }) as HTMLSelectElement).value).toBe(
      'm-large',
    )
    await user.type(box(), 'hello{Enter}')
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toEqual({
        text: 'hello',
        model: 'm-large',
      }),
    )
  })
})
