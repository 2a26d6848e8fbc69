// @vitest-environment jsdom
/** `/server:prompt` in the composer: its argument form, what is sent, and an unknown prompt. */
import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

const box = () => screen.getByRole('textbox', { name: 'Message' })
const prompts = {
  'mcp.prompts': () => ({
    prompts: [
      {
        server: 'docs',
        name: 'review',
        title: 'Review',
        arguments: [
          { name: 'file', required: true },
          { name: 'tone', required: false },
        ],
      },
      { server: 'docs', name: 'hello', arguments: [] },
    ],
    errors: [],
  }),
  'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
}
const sent = (app: ReturnType<typeof renderWithApp>) =>
  app.platform.requests.filter((r) => r.route === 'chat.send').map((r) => r.input)

describe('server prompts as slash commands', () => {
  it('asks the arguments (a required one first), then sends the prompt', async () => {
    const app = renderWithApp(<Composer />, prompts)
    const user = userEvent.setup()
    await user.type(box(), '/docs:rev')
    await waitFor(() =>
      expect(app.platform.requests.some((r) => r.route === 'mcp.prompts')).toBe(true),
    )
    await user.keyboard('{Tab}')
    expect((box() as HTMLTextAreaElement).value).toBe('/docs:review')
    await user.keyboard('{Enter}')
    const form = await screen.findByRole('group', { name: 'Prompt /docs:review' })
    const send = screen.getByRole('button', { name: 'Send prompt' })
    expect(send).toHaveProperty('disabled', true)
    await user.type(screen.getByRole('textbox', { name: /^file/ }), 'a.ts')
    await user.click(send)
    await waitFor(() =>
      expect(sent(app)).toEqual([
        {
          text: '/docs:review',
          prompt: { server: 'docs', name: 'review', arguments: { file: 'a.ts' } },
        },
      ]),
    )
    expect(form.isConnected).toBe(false)
  })

  it('a prompt without arguments is sent at once; Esc cancels a form', async () => {
    const app = renderWithApp(<Composer />, prompts)
    const user = userEvent.setup()
    await user.type(box(), '/docs:review{Enter}')
    await screen.findByRole('group', { name: 'Prompt /docs:review' })
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('group', { name: 'Prompt /docs:review' })).toBeNull()
    await user.clear(box())
    await user.type(box(), '/docs:hello{Enter}')
    await waitFor(() =>
      expect(sent(app)).toEqual([
        { text: '/docs:hello', prompt: { server: 'docs', name: 'hello', arguments: {} } },
      ]),
    )
  })

  it('an unknown prompt says so and sends nothing', async () => {
    const app = renderWithApp(<Composer />, prompts)
    const user = userEvent.setup()
    await user.type(box(), '/docs:nope{Enter}')
    await screen.findByText(/No running server offers the prompt \/docs:nope/)
    expect(sent(app)).toEqual([])
  })
})
