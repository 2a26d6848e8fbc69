// @vitest-environment jsdom
/**
 * The composer's `@` picker against the test platform: keyboard use, chips, what is sent,
 * and a server's list_changed (the `mcp.listChanged` event) refreshing an open picker.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpResource } from '../../src-preload/contract/resources-and-prompts'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { renderWithApp } from './support/render-app'
import { RouteFailure } from './support/test-platform'

afterEach(cleanup)

const box = () => screen.getByRole('textbox', { name: 'Message' })
const res = (name: string): McpResource => ({ server: 'docs', uri: `demo://${name}`, name })

describe('the @ resource picker', () => {
  it('arrows choose, Enter attaches a chip, and the message is sent with it', async () => {
    const app = renderWithApp(<Composer />, {
      'mcp.resources': () => ({
        resources: [res('alpha.md'), res('beta.md')],
        templates: [],
        errors: [],
      }),
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
    })
    const user = userEvent.setup()
    await user.type(box(), 'Read @')
    const listbox = await screen.findByRole('listbox', { name: 'Resources to attach' })
    await within(listbox).findByRole('option', { name: /alpha\.md/ })
    expect(box().getAttribute('aria-activedescendant')).toBe('resource-option-0')
    await user.keyboard('{ArrowDown}')
    expect(
      within(listbox)
        .getByRole('option', { name: /beta\.md/ })
        .getAttribute('aria-selected'),
    ).toBe('true')
    await user.keyboard('{Enter}')
    expect(screen.queryByRole('listbox')).toBeNull()
    const chips = screen.getByRole('list', { name: 'Attached resources' })
    expect(chips.textContent).toContain('beta.md')
    expect((box() as HTMLTextAreaElement).value).toBe('Read ')
    await user.type(box(), 'this{Enter}')
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toEqual({
        text: 'Read this',
        attachments: [{ server: 'docs', uri: 'demo://beta.md', name: 'beta.md' }],
      }),
    )
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Attached resources' })).toBeNull(),
    )
  })

  it('Esc closes the picker, a chip can be removed, and a failed send keeps the chips', async () => {
    const app = renderWithApp(<Composer />, {
      'mcp.resources': () => ({ resources: [res('alpha.md')], templates: [], errors: [] }),
      'chat.send': () => {
        throw new RouteFailure('unavailable', 'The server "docs" could not read demo://alpha.md')
      },
    })
    const user = userEvent.setup()
    await user.type(box(), '@al')
    await screen.findByRole('option', { name: /alpha\.md/ })
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('listbox')).toBeNull()
    // typing on in the same @ keeps it closed; a new @ opens it again
    await user.type(box(), 'p')
    expect(screen.queryByRole('listbox')).toBeNull()
    await user.keyboard('{Backspace}{Backspace}{Backspace}{Backspace}')
    await user.type(box(), '@a')
    await screen.findByRole('option', { name: /alpha\.md/ })
    await user.keyboard('{Tab}')
    expect(screen.getByRole('list', { name: 'Attached resources' }).textContent).toContain(
      'alpha.md',
    )
    await user.type(box(), 'go{Enter}')
    await screen.findByText(/Not sent: The server "docs" could not read/)
    expect(screen.getByRole('list', { name: 'Attached resources' }).textContent).toContain(
      'alpha.md',
    )
    await user.click(screen.getByRole('button', { name: 'Remove alpha.md' }))
    expect(screen.queryByRole('list', { name: 'Attached resources' })).toBeNull()
    expect(app.platform.requests.filter((r) => r.route === 'chat.send')).toHaveLength(1)
  })

  it("a server's list_changed refreshes the open picker", async () => {
    let resources = [res('alpha.md')]
    const app = renderWithApp(<Composer />, {
      'mcp.resources': () => ({ resources, templates: [], errors: [] }),
    })
    const user = userEvent.setup()
    await user.type(box(), '@')
    await screen.findByRole('option', { name: /alpha\.md/ })
    resources = [res('alpha.md'), res('fresh.md')]
    app.platform.emit('mcp.listChanged', { server: 'docs', what: 'resources' })
    await screen.findByRole('option', { name: /fresh\.md/ })
  })
})
