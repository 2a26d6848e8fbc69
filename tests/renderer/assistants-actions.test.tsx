// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AssistantsSection } from '../../src-renderer/src/features/assistants/AssistantsSection'
import { assistantsHost } from './support/assistants-host'
import { renderWithApp } from './support/render-app'
import { settingsHost } from './support/settings-host'
import { RouteFailure } from './support/test-platform'

afterEach(cleanup)
beforeEach(() => localStorage.clear())

function setup(saveFile?: (f: string, m: string, c: string) => Promise<string | null>) {
  const host = assistantsHost()
  const app = renderWithApp(
    <AssistantsSection />,
    { ...settingsHost().handlers, ...host.handlers },
    saveFile ? { saveFile } : {},
  )
  return { ...app, host, user: userEvent.setup() }
}

const file = (name: string, text: string): File =>
  new File([text], name, { type: 'application/json' })

describe('the assistants list actions', () => {
  it('duplicates, then deletes the copy after a confirmation that says chats keep theirs', async () => {
    const { host, user } = setup()
    await user.click(await screen.findByRole('button', { name: 'Duplicate Chat' }))
    const copy = await screen.findByRole('listitem', { name: 'Chat (copy)' })
    expect(screen.getByRole('status', { name: '' }).textContent).toBe(
      'Duplicated Chat as Chat (copy).',
    )
    await user.click(within(copy).getByRole('button', { name: 'Delete Chat (copy)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete this assistant?' })
    expect(dialog.textContent).toContain('Chats that use it keep their own copy')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(host.current().some((a) => a.name === 'Chat (copy)')).toBe(true)

    await user.click(screen.getByRole('button', { name: 'Delete Chat (copy)' }))
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    )
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Chat (copy)' })).toBeNull())
    expect(host.current().some((a) => a.name === 'Chat (copy)')).toBe(false)
    expect(await screen.findByText('Deleted Chat (copy).')).toBeTruthy()
  })

  it('exports through the platform’s save, and says where it went', async () => {
    const saved: { filename: string; content: string }[] = []
    const { user } = setup(async (filename, _m, content) => {
      saved.push({ filename, content })
      return `/home/me/${filename}`
    })
    await user.click(await screen.findByRole('button', { name: 'Export Chat' }))
    expect(
      await screen.findByText('Exported Chat to /home/me/Chat.cairn-assistant.json.'),
    ).toBeTruthy()
    expect(JSON.parse(saved[0]!.content)).toMatchObject({
      cairnAssistant: 1,
      assistant: { name: 'Chat', tools: { builtin: { mode: 'none' } } },
    })
  })

  it('a failed save says why in an alert', async () => {
    const { user } = setup(() => Promise.reject(new Error('disk full')))
    await user.click(await screen.findByRole('button', { name: 'Export Chat' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Could not export Chat: disk full')
  })

  it('imports a file (a taken name gets another and says so); a wrong file is named with why', async () => {
    const { user } = setup()
    const input = await screen.findByLabelText('Import an assistant from a file')
    const exported = JSON.stringify({
      cairnAssistant: 1,
      assistant: {
        name: 'Chat',
        tools: { builtin: { mode: 'none', names: [] }, mcp: { servers: {}, others: 'none' } },
        limits: {},
      },
    })
    await user.upload(input, file('chat.json', exported))
    expect(await screen.findByRole('listitem', { name: 'Chat (2)' })).toBeTruthy()
    expect(
      screen.getByText('Imported Chat (2) (an assistant named Chat already exists).'),
    ).toBeTruthy()

    await user.upload(input, file('notes.json', '{"hello": 1}'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not import notes.json: The file is not an exported assistant (cairnAssistant: 1).',
    )
    await user.upload(input, file('empty.json', ''))
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Could not import empty.json: the file is empty.',
      ),
    )
  })

  it('an import whose policy asks less than yours keeps yours, shows the file’s and asks', async () => {
    const { host, user } = setup()
    const input = await screen.findByLabelText('Import an assistant from a file')
    const loose = (name: string) =>
      JSON.stringify({
        cairnAssistant: 1,
        assistant: {
          name,
          tools: { builtin: { mode: 'all', names: [] }, mcp: { servers: {}, others: 'all' } },
          permissionPolicy: 'allow-all',
          limits: {},
        },
      })
    await user.upload(input, file('loose.json', loose('Loose')))
    const dialog = await screen.findByRole('dialog', {
      name: 'Use the file’s permission policy?',
    })
    expect(dialog.textContent).toContain('“Loose” came with the policy “Allow all”')
    expect(dialog.textContent).toContain('it was imported with yours')
    // Keep is where the focus is: Enter or Esc keeps yours
    expect(document.activeElement?.textContent).toBe('Keep my policy')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(host.current().find((a) => a.name === 'Loose')?.permissionPolicy).toBeUndefined()
    expect(screen.getByText('Imported Loose. It follows your permission policy.')).toBeTruthy()

    await user.upload(input, file('loose.json', loose('Trusted')))
    const again = await screen.findByRole('dialog')
    await user.click(within(again).getByRole('button', { name: 'Use “Allow all”' }))
    await waitFor(() =>
      expect(host.current().find((a) => a.name === 'Trusted')?.permissionPolicy).toBe('allow-all'),
    )
    expect(await screen.findByText('Trusted uses the policy of its file.')).toBeTruthy()
  })

  it('says why the list could not be loaded', async () => {
    const host = assistantsHost()
    renderWithApp(<AssistantsSection />, {
      ...settingsHost().handlers,
      ...host.handlers,
      'assistants.list': () => {
        throw new RouteFailure('internal', 'the store is closed')
      },
    })
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the assistants: the store is closed',
    )
  })

  it('says why the form could not be shown when the built-in tools could not be listed', async () => {
    const host = assistantsHost()
    renderWithApp(<AssistantsSection />, {
      ...settingsHost().handlers,
      ...host.handlers,
      'tools.builtins': () => {
        throw new RouteFailure('internal', 'no tools today')
      },
    })
    await userEvent.setup().click(await screen.findByRole('button', { name: 'New assistant' }))
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert.textContent).toBe('Could not load the built-in tools: no tools today')
  })
})
