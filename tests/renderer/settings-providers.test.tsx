// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { ProvidersSection } from '../../src-renderer/src/features/settings/ProvidersSection'
import { renderWithApp } from './support/render-app'
import { settingsHost, settingsView } from './support/settings-host'
import { RouteFailure } from './support/test-platform'

afterEach(cleanup)

const ollama = {
  id: 'ollama',
  name: 'Ollama',
  baseURL: 'http://127.0.0.1:11434/v1',
  apiKey: null,
}
const openai = {
  id: 'openai',
  name: 'OpenAI',
  baseURL: 'https://api.openai.com/v1',
  defaultModel: 'gpt-4.1',
  apiKey: 'sto…0000',
}

function setup(view = settingsView()) {
  const host = settingsHost(view)
  const app = renderWithApp(<ProvidersSection />, {
    ...host.handlers,
    'providers.test': ({ baseURL, apiKey, providerId }) => {
      if (baseURL.includes('down')) throw new RouteFailure('network', 'Connection error.')
      return { models: [`via-${apiKey ?? providerId ?? 'nokey'}`, 'm'] }
    },
  })
  return { ...app, host, user: userEvent.setup() }
}

describe('the Providers section', () => {
  it('adds a provider from a preset in one update, and it becomes the default', async () => {
    const { host, user } = setup()
    await user.click(await screen.findByRole('button', { name: 'Add provider' }))
    await user.click(screen.getByRole('button', { name: /Ollama/ }))
    const form = screen.getByRole('form', { name: 'Add Ollama' })
    expect(within(form).getByLabelText('Name')).toHaveProperty('value', 'Ollama')
    expect(within(form).getByLabelText('ID')).toHaveProperty('value', 'ollama')
    expect(within(form).getByLabelText('Base URL')).toHaveProperty(
      'value',
      'http://127.0.0.1:11434/v1',
    )
    await user.click(within(form).getByRole('button', { name: 'Save provider' }))
    await screen.findByRole('list', { name: 'Configured providers' })
    expect(host.updates).toEqual([
      {
        providers: [{ id: 'ollama', name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' }],
        activeProviderId: 'ollama',
      },
    ])
    const item = screen.getByRole('listitem', { name: 'Ollama' })
    expect(within(item).getByText('Default')).toBeTruthy()
    expect(within(item).getByText(/No key/)).toBeTruthy()
    expect(screen.getByText('Saved Ollama.').getAttribute('role')).toBe('status')
  })

  it('saves a utility model for summaries with the provider', async () => {
    const { host, user } = setup()
    await user.click(await screen.findByRole('button', { name: 'Add provider' }))
    await user.click(screen.getByRole('button', { name: /Ollama/ }))
    const form = screen.getByRole('form', { name: 'Add Ollama' })
    const utility = within(form).getByLabelText('Utility model')
    expect(utility.getAttribute('aria-describedby')).toBeTruthy()
    await user.type(utility, 'qwen3:1.7b')
    await user.click(within(form).getByRole('button', { name: 'Save provider' }))
    await screen.findByRole('list', { name: 'Configured providers' })
    expect(host.updates[0]).toMatchObject({
      providers: [{ id: 'ollama', utilityModel: 'qwen3:1.7b' }],
    })
  })

  it('says what is wrong next to each field and saves nothing', async () => {
    const { host, user } = setup(settingsView({ providers: [ollama], activeProviderId: 'ollama' }))
    await user.click(await screen.findByRole('button', { name: 'Add provider' }))
    await user.click(screen.getByRole('button', { name: /Custom endpoint/ }))
    const form = screen.getByRole('form', { name: 'Add Custom endpoint' })
    const id = within(form).getByLabelText('ID')
    await user.clear(id)
    await user.type(id, 'ollama')
    await user.type(within(form).getByLabelText('Base URL'), 'ftp://example.com')
    await user.click(within(form).getByRole('button', { name: 'Save provider' }))
    const name = within(form).getByLabelText('Name')
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(name.getAttribute('aria-describedby')).toContain(form.querySelector('.field-error')!.id)
    expect(within(form).getByText('Enter a name.')).toBeTruthy()
    expect(within(form).getByText('Another provider already has the id “ollama”.')).toBeTruthy()
    expect(within(form).getByText('The base URL must start with http:// or https://.')).toBeTruthy()
    expect(document.activeElement).toBe(name)
    expect(host.updates).toEqual([])
    // fixing a field takes its message away
    await user.type(name, 'Mine')
    expect(within(form).queryByText('Enter a name.')).toBeNull()
  })

  it('keeps a saved key when the key field is left empty; tests with the saved key; removes it on request', async () => {
    const { host, platform, user } = setup(
      settingsView({ providers: [openai], activeProviderId: 'openai' }),
    )
    await user.click(await screen.findByRole('button', { name: 'Edit OpenAI' }))
    const form = screen.getByRole('form', { name: 'Edit OpenAI' })
    const key = within(form).getByLabelText('API key')
    expect(key).toHaveProperty('type', 'password')
    expect(key).toHaveProperty('value', '')
    await user.click(within(form).getByRole('button', { name: 'Test connection' }))
    expect(
      await within(form).findByRole('button', { name: 'Use via-openai as default model' }),
    ).toBeTruthy()
    expect(platform.requests.filter((r) => r.route === 'providers.test').at(-1)!.input).toEqual({
      baseURL: 'https://api.openai.com/v1',
      providerId: 'openai',
    })
    await user.click(within(form).getByRole('button', { name: 'Save provider' }))
    await screen.findByRole('list', { name: 'Configured providers' })
    expect(host.updates.at(-1)).not.toHaveProperty('apiKeys')
    expect(host.keys.get('openai')).toBe('stored-key-000000')

    await user.click(screen.getByRole('button', { name: 'Edit OpenAI' }))
    await user.click(screen.getByRole('button', { name: 'Remove key' }))
    await user.click(screen.getByRole('button', { name: 'Save provider' }))
    await screen.findByRole('list', { name: 'Configured providers' })
    expect(host.updates.at(-1)!.apiKeys).toEqual({ openai: null })
    expect(screen.getByRole('listitem', { name: 'OpenAI' }).textContent).toContain('No key')
  })

  it('tests the typed URL and key, and says exactly what failed', async () => {
    const { platform, user } = setup()
    await user.click(await screen.findByRole('button', { name: 'Add provider' }))
    await user.click(screen.getByRole('button', { name: /Custom endpoint/ }))
    const form = screen.getByRole('form', { name: 'Add Custom endpoint' })
    await user.type(within(form).getByLabelText('Base URL'), 'http://down.example/v1')
    await user.type(within(form).getByLabelText('API key'), 'sk-typed')
    await user.click(within(form).getByRole('button', { name: 'Test connection' }))
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Connection failed: Connection error.',
    )
    expect(platform.requests.filter((r) => r.route === 'providers.test').at(-1)!.input).toEqual({
      baseURL: 'http://down.example/v1',
      apiKey: 'sk-typed',
    })
  })

  it('makes another provider the default and removes one after confirming', async () => {
    const { host, user } = setup(
      settingsView({
        providers: [ollama, openai],
        activeProviderId: 'ollama',
        activeModel: 'qwen3',
      }),
    )
    await user.click(await screen.findByRole('button', { name: 'Make OpenAI the default' }))
    await waitFor(() =>
      expect(
        within(screen.getByRole('listitem', { name: 'OpenAI' })).getByText('Default'),
      ).toBeTruthy(),
    )
    expect(host.updates.at(-1)).toEqual({ activeProviderId: 'openai', activeModel: null })

    await user.click(screen.getByRole('button', { name: 'Remove OpenAI' }))
    const confirm = screen.getByRole('group', { name: 'Remove OpenAI?' })
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'OpenAI' })).toBeNull())
    expect(host.updates.at(-1)).toEqual({
      providers: [{ id: 'ollama', name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' }],
      apiKeys: { openai: null },
      activeProviderId: 'ollama',
      activeModel: null,
    })
  })

  it('saves the default model typed or listed by the provider', async () => {
    const { host, user } = setup(settingsView({ providers: [ollama], activeProviderId: 'ollama' }))
    const field = await screen.findByLabelText('Default model (Ollama)')
    await waitFor(() => expect(document.querySelectorAll('datalist option')).toHaveLength(3))
    await user.type(field, 'm-large')
    await user.click(screen.getByRole('button', { name: 'Save model' }))
    await waitFor(() => expect(host.current().activeModel).toBe('m-large'))
    expect(host.updates.at(-1)).toEqual({ activeModel: 'm-large' })
    expect(
      within(screen.getByRole('form', { name: 'Default model' })).getByRole('status').textContent,
    ).toBe('Saved')
  })
})
