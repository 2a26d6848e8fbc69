// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GeneralSection } from '../../src-renderer/src/features/settings/GeneralSection'
import { PermissionsSection } from '../../src-renderer/src/features/settings/PermissionsSection'
import { ToolsSection } from '../../src-renderer/src/features/settings/ToolsSection'
import { ChatHeader } from '../../src-renderer/src/screens/chat/ChatHeader'
import { renderWithApp } from './support/render-app'
import { settingsHost, settingsView } from './support/settings-host'

afterEach(cleanup)

/** The message the field's aria-describedby names first (its error when it has one). */
const errorOf = (el: HTMLElement): string | null | undefined =>
  document.getElementById(el.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent
beforeEach(() => localStorage.clear())

describe('the Permissions section', () => {
  it('saves the policy as soon as it is chosen, and revokes one rule by its name', async () => {
    const host = settingsHost(
      settingsView({
        alwaysAllow: [
          { server: 'everything', tool: 'echo', fingerprint: 'f1', createdAt: 1_700_000_000_000 },
          { server: 'cairn', tool: 'read_file', fingerprint: 'f2', createdAt: 1_700_000_000_000 },
        ],
      }),
    )
    renderWithApp(<PermissionsSection />, host.handlers)
    const user = userEvent.setup()
    const denyAll = await screen.findByRole('radio', { name: /Deny all/ })
    expect(screen.getByRole('radio', { name: /Ask/ })).toHaveProperty('checked', true)
    expect(denyAll.getAttribute('aria-describedby')).toBeTruthy()
    await user.click(denyAll)
    await waitFor(() => expect(host.current().permissionPolicy).toBe('deny-all'))
    expect(denyAll).toHaveProperty('checked', true)

    expect(screen.getByRole('cell', { name: 'Built-in' })).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Revoke everything echo' }))
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Revoke everything echo' })).toBeNull(),
    )
    expect(host.updates.at(-1)).toEqual({
      revokeAlwaysAllow: { server: 'everything', tool: 'echo', fingerprint: 'f1' },
    })
    expect(screen.getByRole('button', { name: 'Revoke Built-in read_file' })).toBeTruthy()
  })
})

describe('the Tools and workspace section', () => {
  const builtins = {
    'tools.builtins': () => ({
      tools: [
        {
          name: 'read_file',
          title: 'Read file',
          description: 'Reads a file. More.',
          readOnly: true,
        },
        {
          name: 'run_command',
          title: 'Run command',
          description: 'Runs a command.',
          readOnly: false,
        },
      ],
      defaultWorkspace: '/home/me/Cairn',
    }),
  }

  it('switches a built-in tool off and on', async () => {
    const host = settingsHost()
    renderWithApp(<ToolsSection />, { ...host.handlers, ...builtins })
    const user = userEvent.setup()
    const run = await screen.findByRole('checkbox', { name: /run_command/ })
    expect(run).toHaveProperty('checked', true)
    await user.click(run)
    await waitFor(() => expect(host.current().builtinTools.disabled).toEqual(['run_command']))
    expect(run).toHaveProperty('checked', false)
    await user.click(run)
    await waitFor(() => expect(host.current().builtinTools.disabled).toEqual([]))
  })

  it('takes only an absolute workspace path, and no Choose button without a picker', async () => {
    const host = settingsHost()
    renderWithApp(<ToolsSection />, { ...host.handlers, ...builtins })
    const user = userEvent.setup()
    const field = await screen.findByLabelText('Default workspace folder')
    expect(screen.queryByRole('button', { name: 'Choose…' })).toBeNull()
    await user.type(field, 'projects')
    await user.click(screen.getByRole('button', { name: 'Save workspace' }))
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText(/Enter an absolute path/)).toBeTruthy()
    expect(host.updates).toEqual([])
    await user.clear(field)
    await user.type(field, '/srv/work')
    await user.click(screen.getByRole('button', { name: 'Save workspace' }))
    await waitFor(() => expect(host.current().defaultWorkspace).toBe('/srv/work'))
  })

  it('fills the field from the system folder picker where the host has one, and says when it fails', async () => {
    const host = settingsHost()
    const asked: (string | undefined)[] = []
    let answer: () => Promise<string | null> = async () => '/home/me/Projects'
    renderWithApp(
      <ToolsSection />,
      { ...host.handlers, ...builtins },
      { pickFolder: (title) => (asked.push(title), answer()) },
    )
    const user = userEvent.setup()
    const field = await screen.findByLabelText('Default workspace folder')
    await user.click(screen.getByRole('button', { name: 'Choose…' }))
    await waitFor(() => expect(field).toHaveProperty('value', '/home/me/Projects'))
    expect(asked).toEqual(['Choose the default workspace folder'])
    // the picker does not save by itself
    expect(host.updates).toEqual([])
    answer = async () => null
    await user.click(screen.getByRole('button', { name: 'Choose…' }))
    expect(field).toHaveProperty('value', '/home/me/Projects')
    answer = async () => {
      throw new Error('No window to show it over.')
    }
    await user.click(screen.getByRole('button', { name: 'Choose…' }))
    await waitFor(() => expect(errorOf(field)).toContain('No window to show it over.'))
    await user.click(screen.getByRole('button', { name: 'Save workspace' }))
    await waitFor(() => expect(host.current().defaultWorkspace).toBe('/home/me/Projects'))
  })
})

describe('the General section', () => {
  it('checks every limit against its bounds, and saves seconds as milliseconds in one update', async () => {
    const host = settingsHost()
    renderWithApp(<GeneralSection />, host.handlers)
    const user = userEvent.setup()
    const retries = await screen.findByLabelText('Retries of a failed model call')
    const deadline = screen.getByLabelText('Time limit per turn (seconds)')
    expect(deadline).toHaveProperty('value', '600')
    await user.clear(retries)
    await user.type(retries, '21')
    await user.clear(deadline)
    await user.type(deadline, '0.5')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    expect(errorOf(retries)).toBe('At most 20.')
    expect(errorOf(deadline)).toBe('At least 1.')
    expect(retries.getAttribute('aria-invalid')).toBe('true')
    expect(host.updates).toEqual([])
    await user.clear(retries)
    await user.type(retries, '5')
    await user.clear(deadline)
    await user.type(deadline, '90')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    await waitFor(() => expect(host.updates).toHaveLength(1))
    expect(host.current().limits).toMatchObject({ maxRetries: 5, deadlineMs: 90_000 })
    const form = screen.getByRole('form', { name: 'Limits' })
    expect(within(form).getByRole('status').textContent).toBe('Saved')
  })

  it('edits the answer cap and the tools per MCP server, within their bounds', async () => {
    const host = settingsHost()
    renderWithApp(<GeneralSection />, host.handlers)
    const user = userEvent.setup()
    const answer = await screen.findByLabelText('Longest answer (characters)')
    const tools = screen.getByLabelText('Tools offered per MCP server')
    await user.clear(answer)
    await user.type(answer, '999')
    await user.clear(tools)
    await user.type(tools, '10001')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    expect(errorOf(answer)).toBe('At least 1000.')
    expect(errorOf(tools)).toBe('At most 10000.')
    expect(host.updates).toEqual([])
    await user.clear(answer)
    await user.type(answer, '500000')
    await user.clear(tools)
    await user.type(tools, '40')
    await user.click(screen.getByRole('button', { name: 'Save limits' }))
    await waitFor(() => expect(host.updates).toHaveLength(1))
    expect(host.current().limits).toMatchObject({ maxAnswerChars: 500_000, maxToolsPerServer: 40 })
  })

  it('switches generated chat titles on and off, saved at once', async () => {
    const host = settingsHost()
    renderWithApp(<GeneralSection />, host.handlers)
    const user = userEvent.setup()
    const toggle = await screen.findByRole('checkbox', { name: 'Let the model name new chats' })
    expect(toggle).toHaveProperty('checked', false)
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy()
    await user.click(toggle)
    await waitFor(() => expect(host.current().generateTitles).toBe(true))
    expect(host.updates.at(-1)).toEqual({ generateTitles: true })
    await user.click(toggle)
    await waitFor(() => expect(host.current().generateTitles).toBe(false))
  })

  it('saves a system prompt and resets it to the default (null)', async () => {
    const host = settingsHost()
    renderWithApp(<GeneralSection />, host.handlers)
    const user = userEvent.setup()
    await user.type(
      await screen.findByRole('textbox', { name: 'System prompt' }),
      'Answer briefly.',
    )
    await user.click(screen.getByRole('button', { name: 'Save prompt' }))
    await waitFor(() => expect(host.current().systemPrompt).toBe('Answer briefly.'))
    await user.click(screen.getByRole('button', { name: 'Reset to default' }))
    await waitFor(() => expect(host.current().systemPrompt).toBeNull())
    expect(screen.getByRole('textbox', { name: 'System prompt' })).toHaveProperty('value', '')
  })

  it('the theme choice and the header switch are one setting', async () => {
    const host = settingsHost()
    renderWithApp(
      <>
        <ChatHeader />
        <GeneralSection />
      </>,
      {
        ...host.handlers,
        'sessions.get': () => ({ session: {} as never, messages: [], hasMore: false }),
      },
    )
    const user = userEvent.setup()
    expect(screen.getByRole('radio', { name: 'Same as the system' })).toHaveProperty(
      'checked',
      true,
    )
    await user.click(screen.getByRole('radio', { name: 'Dark' }))
    expect(document.documentElement.dataset['theme']).toBe('dark')
    expect(localStorage.getItem('cairn.theme')).toBe('dark')
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }))
    expect(document.documentElement.dataset['theme']).toBe('light')
    expect(screen.getByRole('radio', { name: 'Light' })).toHaveProperty('checked', true)
    await user.click(screen.getByRole('radio', { name: 'Same as the system' }))
    expect(localStorage.getItem('cairn.theme')).toBeNull()
  })
})
