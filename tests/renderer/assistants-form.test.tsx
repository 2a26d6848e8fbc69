// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AssistantsSection } from '../../src-renderer/src/features/assistants/AssistantsSection'
import { assistant, assistantsHost } from './support/assistants-host'
import { renderWithApp } from './support/render-app'
import { settingsHost, settingsView } from './support/settings-host'
import { RouteFailure } from './support/test-platform'

afterEach(cleanup)
beforeEach(() => localStorage.clear())

/** The message the field's aria-describedby names first (its error when it has one). */
const errorOf = (el: HTMLElement): string | null | undefined =>
  document.getElementById(el.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent

function setup(
  host = assistantsHost(),
  extra: Parameters<typeof renderWithApp>[1] = {},
  platform: Parameters<typeof renderWithApp>[2] = {},
  settings = settingsHost(),
) {
  const app = renderWithApp(
    <AssistantsSection />,
    { ...settings.handlers, ...host.handlers, ...extra },
    platform,
  )
  return { ...app, host, user: userEvent.setup() }
}

async function openNew(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'New assistant' }))
  return screen.findByRole('form', { name: 'New assistant' })
}

const previewNames = async (): Promise<string[]> => {
  const list = await screen.findByRole('list', { name: 'Offered tools' })
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.querySelector('code')!.textContent!)
}

describe('the assistants list', () => {
  it('marks the default and the built-in ones; the default has no Delete', async () => {
    setup()
    const list = await screen.findByRole('list', { name: 'Assistants' })
    const def = within(list).getByRole('listitem', { name: 'Default' })
    expect(within(def).getByText('Default', { selector: '.badge' })).toBeTruthy()
    expect(within(def).queryByRole('button', { name: 'Delete Default' })).toBeNull()
    const chat = within(list).getByRole('listitem', { name: 'Chat' })
    expect(within(chat).getByText('Built-in')).toBeTruthy()
    expect(within(chat).getByText(/Built-in tools: none · MCP tools: none/)).toBeTruthy()
    expect(within(chat).getByRole('button', { name: 'Delete Chat' })).toBeTruthy()
  })
})

describe('the assistant form', () => {
  it('creates an assistant that may use one chosen built-in tool and no MCP tool, previewing exactly that', async () => {
    const { host, user } = setup()
    const form = await openNew(user)
    expect(screen.getByRole('textbox', { name: 'Name' })).toBe(document.activeElement)
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Lister')
    // the preview starts with every tool (a new assistant offers all, like the default)
    await waitFor(async () =>
      expect(await previewNames()).toEqual([
        'list_directory',
        'read_file',
        'run_command',
        'echo',
        'add',
      ]),
    )

    const builtin = within(form).getByRole('group', { name: 'Built-in tools' })
    await user.click(within(builtin).getByRole('radio', { name: 'Chosen' }))
    await user.click(within(builtin).getByRole('checkbox', { name: /list_directory/ }))
    const others = within(form).getByRole('group', { name: 'Other MCP servers' })
    await user.click(within(others).getByRole('radio', { name: 'No tools' }))
    await waitFor(async () => expect(await previewNames()).toEqual(['list_directory']))

    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    await waitFor(() => expect(host.created).toHaveLength(1))
    expect(host.created[0]).toEqual({
      assistant: {
        name: 'Lister',
        tools: {
          builtin: { mode: 'some', names: ['list_directory'] },
          mcp: { servers: {}, others: 'none' },
        },
        limits: {},
      },
    })
    const item = await screen.findByRole('listitem', { name: 'Lister' })
    expect(item.textContent).toContain('Built-in tools: list_directory · MCP tools: none')
    expect(screen.getByText('Saved Lister.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'New assistant' })).toBe(document.activeElement)
  })

  it('a server can be left like the others, or given all, none or chosen tools; the names stay when the mode changes', async () => {
    const { host, user } = setup()
    const form = await openNew(user)
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Echoer')
    const server = within(form).getByRole('group', { name: 'MCP server everything' })
    expect(within(server).getByRole('radio', { name: 'Like other servers' })).toHaveProperty(
      'checked',
      true,
    )
    await user.click(within(server).getByRole('radio', { name: 'Chosen' }))
    await user.click(within(server).getByRole('checkbox', { name: /echo/ }))
    await user.click(within(server).getByRole('radio', { name: 'All' }))
    await user.click(within(server).getByRole('radio', { name: 'Chosen' }))
    expect(within(server).getByRole('checkbox', { name: /echo/ })).toHaveProperty('checked', true)
    const builtin = within(form).getByRole('group', { name: 'Built-in tools' })
    await user.click(within(builtin).getByRole('radio', { name: 'None' }))
    await waitFor(async () => expect(await previewNames()).toEqual(['echo']))
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    await waitFor(() => expect(host.created).toHaveLength(1))
    expect(host.created[0]!.assistant.tools).toEqual({
      builtin: { mode: 'none', names: [] },
      mcp: { servers: { everything: { mode: 'some', names: ['echo'] } }, others: 'all' },
    })
  })

  it('says what is wrong beside each field, focuses the first, and sends nothing', async () => {
    const { host, user } = setup()
    const form = await openNew(user)
    const builtin = within(form).getByRole('group', { name: 'Built-in tools' })
    await user.click(within(builtin).getByRole('radio', { name: 'Chosen' }))
    await user.type(screen.getByRole('spinbutton', { name: 'Temperature' }), '3')
    await user.type(screen.getByRole('spinbutton', { name: 'Model calls per turn' }), '1.5')
    await user.type(screen.getByRole('textbox', { name: 'Workspace folder' }), 'relative/dir')
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))

    const name = screen.getByRole('textbox', { name: 'Name' })
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(errorOf(name)).toBe('Give the assistant a name.')
    expect(document.activeElement).toBe(name)
    expect(errorOf(screen.getByRole('spinbutton', { name: 'Temperature' }))).toBe('At most 2.')
    expect(errorOf(screen.getByRole('spinbutton', { name: 'Model calls per turn' }))).toBe(
      'Enter a whole number.',
    )
    expect(errorOf(screen.getByRole('textbox', { name: 'Workspace folder' }))).toMatch(
      /absolute path/,
    )
    expect(within(form).getByText(/Choose at least one built-in tool/)).toBeTruthy()
    expect(host.created).toHaveLength(0)

    // a fixed field loses its message at once; a taken name is said before anything is sent
    await user.clear(screen.getByRole('spinbutton', { name: 'Temperature' }))
    await user.type(screen.getByRole('spinbutton', { name: 'Temperature' }), '0.4')
    expect(
      screen.getByRole('spinbutton', { name: 'Temperature' }).getAttribute('aria-invalid'),
    ).toBeNull()
    expect(errorOf(name)).toBe('Give the assistant a name.')
    await user.type(name, 'chat')
    expect(name.getAttribute('aria-invalid')).toBeNull()
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    expect(errorOf(name)).toBe('There is already an assistant named “chat”.')
    expect(host.created).toHaveLength(0)
  })

  it('a refusal the host names a field for is shown beside that field; another one beside Save', async () => {
    let refusal = new RouteFailure(
      'bad_request',
      'Invalid input for assistants.create: assistant.limits.deadlineMs: Too small: expected number to be >=1000',
      { fields: { 'assistant.limits.deadlineMs': 'Too small: expected number to be >=1000' } },
    )
    const host = assistantsHost()
    const { user } = setup(host, {
      'assistants.create': () => {
        throw refusal
      },
    })
    const form = await openNew(user)
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Slow')
    await user.type(screen.getByRole('spinbutton', { name: 'Time limit per turn (seconds)' }), '2')
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    const deadline = screen.getByRole('spinbutton', { name: 'Time limit per turn (seconds)' })
    await waitFor(() => expect(errorOf(deadline)).toBe('Too small: expected number to be >=1000'))
    expect(document.activeElement).toBe(deadline)

    refusal = new RouteFailure('unavailable', 'Assistants are not stored yet in this version.')
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Not saved: Assistants are not stored yet in this version.',
    )
    // still open, with what was typed
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Slow')
  })

  it('a name another window took meanwhile: the host’s conflict names the field, so it is shown beside Name', async () => {
    const { host, user } = setup()
    const form = await openNew(user)
    // another window saves "Notes" after this one listed the assistants
    await host.handlers['assistants.create']!({
      assistant: { name: 'Notes', tools: assistant('x', {}).tools, limits: {} },
    } as never)
    const name = screen.getByRole('textbox', { name: 'Name' })
    await user.type(name, 'Notes')
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    await waitFor(() => expect(errorOf(name)).toBe('An assistant named "Notes" exists.'))
    expect(document.activeElement).toBe(name)
    expect(within(form).queryByRole('alert')).toBeNull()
  })

  it('a refusal without fields stays beside Save, whatever its words say', async () => {
    const { user } = setup(assistantsHost(), {
      'assistants.create': () => {
        throw new RouteFailure('conflict', 'The name of the provider assistant.providerId clashes.')
      },
    })
    const form = await openNew(user)
    const name = screen.getByRole('textbox', { name: 'Name' })
    await user.type(name, 'Plain')
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Not saved: The name of the provider assistant.providerId clashes.',
    )
    expect(name.getAttribute('aria-invalid')).toBeNull()
  })

  it('edits an assistant: every field comes back as saved, and the update replaces it whole', async () => {
    const host = assistantsHost([
      assistant('default', { name: 'Default' }, 'default'),
      assistant('r', {
        name: 'Reader',
        description: 'Reads',
        systemPrompt: '',
        temperature: 0.2,
        permissionPolicy: 'read-only',
        limits: { maxIterations: 4, deadlineMs: 90_500 },
        workspace: '/srv/docs',
        tools: {
          builtin: { mode: 'some', names: ['read_file'] },
          mcp: { servers: {}, others: 'none' },
        },
      }),
    ])
    const { user } = setup(host)
    await user.click(await screen.findByRole('button', { name: 'Edit Reader' }))
    const form = await screen.findByRole('form', { name: 'Edit Reader' })
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveProperty('value', 'Reads')
    expect(
      screen.getByRole('checkbox', { name: 'Use the system prompt from the settings' }),
    ).toHaveProperty('checked', false)
    expect(screen.getByRole('textbox', { name: 'System prompt' })).toHaveProperty('value', '')
    expect(screen.getByRole('spinbutton', { name: 'Temperature' })).toHaveProperty('value', '0.2')
    expect(screen.getByRole('combobox', { name: 'Permission policy' })).toHaveProperty(
      'value',
      'read-only',
    )
    expect(
      screen.getByRole('spinbutton', { name: 'Time limit per turn (seconds)' }),
    ).toHaveProperty('value', '90.5')
    await waitFor(async () => expect(await previewNames()).toEqual(['read_file']))

    await user.click(
      screen.getByRole('checkbox', { name: 'Use the system prompt from the settings' }),
    )
    await user.selectOptions(screen.getByRole('combobox', { name: 'Permission policy' }), '')
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    await waitFor(() => expect(host.updated).toHaveLength(1))
    expect(host.updated[0]).toEqual({
      id: 'r',
      assistant: {
        name: 'Reader',
        description: 'Reads',
        temperature: 0.2,
        limits: { maxIterations: 4, deadlineMs: 90_500 },
        workspace: '/srv/docs',
        tools: {
          builtin: { mode: 'some', names: ['read_file'] },
          mcp: { servers: {}, others: 'none' },
        },
      },
    })
    expect(await screen.findByText('Saved Reader.')).toBeTruthy()
  })

  it('the preview is not asked again while the name or the description is typed; it follows the tools', async () => {
    const { host, user } = setup()
    const form = await openNew(user)
    await waitFor(() => expect(host.previews.length).toBeGreaterThan(0))
    const before = host.previews.length
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'A long name typed fast')
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'more words')
    expect(host.previews.length).toBe(before)
    const builtin = within(form).getByRole('group', { name: 'Built-in tools' })
    await user.click(within(builtin).getByRole('radio', { name: 'None' }))
    await waitFor(async () => expect(await previewNames()).toEqual(['echo', 'add']))
    expect(host.previews.at(-1)!.tools.builtin.mode).toBe('none')
  })

  it('names a tool that is not found now, in the form and in the preview', async () => {
    const host = assistantsHost([
      assistant('default', { name: 'Default' }, 'default'),
      assistant('x', {
        name: 'Old',
        tools: {
          builtin: { mode: 'some', names: ['gone_tool'] },
          mcp: { servers: { retired: { mode: 'all', names: [] } }, others: 'none' },
        },
      }),
    ])
    const { user } = setup(host)
    await user.click(await screen.findByRole('button', { name: 'Edit Old' }))
    const form = await screen.findByRole('form', { name: 'Edit Old' })
    const builtin = within(form).getByRole('group', { name: 'Built-in tools' })
    expect(
      within(builtin).getByRole('checkbox', { name: /gone_tool.*not found now/ }),
    ).toHaveProperty('checked', true)
    expect(within(form).getByRole('group', { name: 'MCP server retired' }).textContent).toContain(
      'Not configured now.',
    )
    const missing = await screen.findByRole('list', { name: 'Tools not found' })
    expect(missing.textContent).toContain('gone_tool')
    expect(await screen.findByText('None: the model can only answer in words.')).toBeTruthy()
  })

  it('picks a provider from the settings and lists its models; the folder picker fills the workspace', async () => {
    const settings = settingsHost(
      settingsView({
        providers: [
          { id: 'ollama', name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', apiKey: null },
          {
            id: 'openai',
            name: 'OpenAI',
            baseURL: 'https://api.openai.com/v1',
            defaultModel: 'gpt-4.1',
            apiKey: null,
          },
        ],
        activeProviderId: 'ollama',
      }),
    )
    const host = assistantsHost()
    const { user, platform } = setup(
      host,
      {
        'providers.models': ({ providerId }) =>
          providerId === 'openai'
            ? { models: ['gpt-4.1', 'gpt-4.1-mini'], defaultModel: 'gpt-4.1' }
            : { models: ['qwen3'], defaultModel: 'qwen3' },
      },
      { pickFolder: async () => '/home/me/Projects/site' },
      settings,
    )
    const form = await openNew(user)
    const provider = screen.getByRole('combobox', { name: 'Provider' })
    expect(
      within(provider).getByRole('option', { name: 'The default provider (now Ollama)' }),
    ).toBeTruthy()
    await user.selectOptions(provider, 'openai')
    const model = screen.getByRole('combobox', { name: 'Model' })
    await waitFor(() => expect(errorOf(model)).toBe('2 models available. Empty: gpt-4.1.'))
    expect(
      platform.requests.some(
        (r) =>
          r.route === 'providers.models' &&
          (r.input as { providerId?: string }).providerId === 'openai',
      ),
    ).toBe(true)
    await user.type(model, 'gpt-4.1-mini')
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Site')
    await user.click(within(form).getByRole('button', { name: 'Choose…' }))
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Workspace folder' })).toHaveProperty(
        'value',
        '/home/me/Projects/site',
      ),
    )
    await user.click(within(form).getByRole('button', { name: 'Save assistant' }))
    await waitFor(() => expect(host.created).toHaveLength(1))
    expect(host.created[0]!.assistant).toMatchObject({
      name: 'Site',
      providerId: 'openai',
      model: 'gpt-4.1-mini',
      workspace: '/home/me/Projects/site',
    })
  })

  it('without a folder picker (browser mode) the workspace is typed, and there is no Choose…', async () => {
    const { user } = setup()
    const form = await openNew(user)
    expect(within(form).queryByRole('button', { name: 'Choose…' })).toBeNull()
    expect(screen.getByRole('textbox', { name: 'Workspace folder' })).toBeTruthy()
  })
})
