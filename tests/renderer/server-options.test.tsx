// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { ServerInfoView } from '../../src-preload/contract/app-dto'
import type { RouteInput } from '../../src-preload/contract/routes'
import { ProvidersSection } from '../../src-renderer/src/features/settings/ProvidersSection'
import { renderWithApp } from './support/render-app'
import { settingsHost, settingsView } from './support/settings-host'

afterEach(cleanup)

const noModel = { tools: null, vision: null, thinking: null, thinkingControl: null }

function setup(answer: (input: RouteInput<'providers.info'>) => ServerInfoView) {
  const host = settingsHost(settingsView())
  const asked: RouteInput<'providers.info'>[] = []
  renderWithApp(<ProvidersSection />, {
    ...host.handlers,
    'providers.test': () => ({ models: ['qwen3'] }),
    'providers.info': (input) => {
      asked.push(input)
      return answer(input)
    },
  })
  return { host, asked, user: userEvent.setup() }
}

const ollamaInfo = (input: RouteInput<'providers.info'>): ServerInfoView => ({
  kind: 'ollama',
  model: input.model
    ? { tools: true, vision: false, thinking: true, thinkingControl: 'think' }
    : null,
  contextWindow: input.model
    ? input.ollamaNativeApi === false
      ? { tokens: 4096, source: "Ollama's default num_ctx" }
      : { tokens: input.ollamaMaxContext ?? 32_768, source: 'num_ctx sent to Ollama' }
    : null,
  trainedContext: 40_960,
  problems: [],
})

async function addPreset(user: ReturnType<typeof userEvent.setup>, preset: RegExp) {
  await user.click(await screen.findByRole('button', { name: 'Add provider' }))
  await user.click(screen.getByRole('button', { name: preset }))
}

describe("a provider's server options", () => {
  it('Ollama: native API, largest window, keep-alive and a thinking switch, saved with the provider', async () => {
    const { host, asked, user } = setup(ollamaInfo)
    await addPreset(user, /Ollama/)
    const form = screen.getByRole('form', { name: 'Add Ollama' })
    await user.type(within(form).getByLabelText('Default model'), 'qwen3')
    const status = await within(form).findByText(
      /Ollama\. qwen3: uses tools, takes no images, thinks\. Context window: 32768 tokens/,
      {},
      { timeout: 3000 },
    )
    expect(status.getAttribute('role')).toBe('status')
    const native = within(form).getByRole('checkbox', { name: "Use Ollama's native API" })
    expect(native).toHaveProperty('checked', true)
    expect(within(form).getByRole('combobox', { name: 'Thinking' })).toBeTruthy()

    // through the OpenAI-compatible endpoint, Ollama's thinking and window cannot be set
    await user.click(native)
    await within(form).findByText(/Context window: 4096 tokens/, {}, { timeout: 3000 })
    expect(within(form).queryByRole('combobox', { name: 'Thinking' })).toBeNull()
    expect(within(form).queryByLabelText('Largest context window (tokens)')).toBeNull()
    expect(asked.at(-1)).toMatchObject({ ollamaNativeApi: false, model: 'qwen3' })

    await user.click(native)
    await user.type(within(form).getByLabelText('Largest context window (tokens)'), '16384')
    await user.type(within(form).getByLabelText('Keep the model loaded for'), '1h')
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Thinking' }), 'off')
    await user.click(within(form).getByRole('button', { name: 'Save provider' }))
    await screen.findByRole('list', { name: 'Configured providers' })
    expect(host.updates[0]!.providers).toEqual([
      {
        id: 'ollama',
        name: 'Ollama',
        baseURL: 'http://127.0.0.1:11434/v1',
        defaultModel: 'qwen3',
        ollamaMaxContext: 16_384,
        keepAlive: '1h',
        thinking: false,
      },
    ])
  })

  it('a server and model without a thinking switch show neither it nor the Ollama options', async () => {
    const { user } = setup((input) => ({
      kind: 'openai-compatible',
      model: input.model ? noModel : null,
      contextWindow: input.model ? { tokens: 32_768, source: 'the settings' } : null,
      trainedContext: null,
      problems: [],
    }))
    await addPreset(user, /Custom endpoint/)
    const form = screen.getByRole('form', { name: 'Add Custom endpoint' })
    await user.type(within(form).getByLabelText('Base URL'), 'http://127.0.0.1:8000/v1')
    await user.type(within(form).getByLabelText('Default model'), 'my-model')
    await within(form).findByText(/An OpenAI-compatible server\. my-model\./, {}, { timeout: 3000 })
    expect(within(form).queryByRole('combobox', { name: 'Thinking' })).toBeNull()
    expect(within(form).queryByRole('checkbox', { name: "Use Ollama's native API" })).toBeNull()
  })

  it('a keep-alive Ollama would not understand is refused beside the field', async () => {
    const { host, user } = setup(ollamaInfo)
    await addPreset(user, /Ollama/)
    const form = screen.getByRole('form', { name: 'Add Ollama' })
    const keep = await within(form).findByLabelText(
      'Keep the model loaded for',
      {},
      { timeout: 3000 },
    )
    await user.type(keep, 'forever')
    await user.click(within(form).getByRole('button', { name: 'Save provider' }))
    expect(keep.getAttribute('aria-invalid')).toBe('true')
    expect(within(form).getByText(/Seconds, or a duration such as 30s, 5m or 1h/)).toBeTruthy()
    expect(host.updates).toEqual([])
  })
})
