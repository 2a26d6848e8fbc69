// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { ProviderView, ServerInfoView } from '../../src-preload/contract/app-dto'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { renderWithApp } from './support/render-app'
import { settingsHost, settingsView } from './support/settings-host'

afterEach(cleanup)

const ollama: ProviderView = {
  id: 'ollama',
  name: 'Ollama',
  baseURL: 'http://127.0.0.1:11434/v1',
  defaultModel: 'qwen3',
  apiKey: null,
}

const info = (thinkingControl: string | null): ServerInfoView => ({
  kind: 'ollama',
  model: { tools: true, vision: false, thinking: thinkingControl !== null, thinkingControl },
  contextWindow: { tokens: 32_768, source: 'num_ctx sent to Ollama' },
  trainedContext: 40_960,
  problems: [],
})

function setup(o: {
  provider?: ProviderView
  source?: 'settings' | 'env'
  control?: string | null
}) {
  const provider = o.provider ?? ollama
  const host = settingsHost(settingsView({ providers: [provider], activeProviderId: provider.id }))
  const app = renderWithApp(<Composer />, {
    ...host.handlers,
    'providers.status': () => ({ configured: true, source: o.source ?? 'settings', label: 'x' }),
    'providers.models': () => ({ models: ['qwen3'], defaultModel: 'qwen3' }),
    'providers.info': () => info(o.control === undefined ? 'think' : o.control),
  })
  return { ...app, host, user: userEvent.setup() }
}

const infoAsked = (app: ReturnType<typeof setup>) =>
  app.platform.requests.filter((r) => r.route === 'providers.info')

describe('the Thinking switch beside the model', () => {
  it("switches the provider's thinking, and shows where it stands", async () => {
    const app = setup({})
    const button = await screen.findByRole('button', { name: 'Thinking' })
    expect(button.getAttribute('aria-pressed')).toBe('true')
    expect(infoAsked(app)[0]!.input).toEqual({ baseURL: ollama.baseURL, model: 'qwen3' })
    await app.user.click(button)
    await waitFor(() => expect(button.getAttribute('aria-pressed')).toBe('false'))
    expect(app.host.updates).toEqual([{ providers: [{ ...stripKey(ollama), thinking: false }] }])
  })

  it('is not there for a model whose thinking cannot be switched', async () => {
    const app = setup({ control: null })
    await waitFor(() => expect(infoAsked(app)).toHaveLength(1))
    await screen.findByRole('combobox', { name: 'Model' })
    expect(screen.queryByRole('button', { name: 'Thinking' })).toBeNull()
  })

  it("is not there for Ollama's OpenAI-compatible endpoint", async () => {
    const app = setup({ provider: { ...ollama, ollamaNativeApi: false } })
    await waitFor(() => expect(infoAsked(app)).toHaveLength(1))
    expect(screen.queryByRole('button', { name: 'Thinking' })).toBeNull()
  })

  it('is not there when the environment chooses the provider', async () => {
    const app = setup({ source: 'env' })
    await waitFor(() =>
      expect(app.platform.requests.some((r) => r.route === 'providers.status')).toBe(true),
    )
    await screen.findByRole('combobox', { name: 'Model' })
    expect(infoAsked(app)).toHaveLength(0)
    expect(screen.queryByRole('button', { name: 'Thinking' })).toBeNull()
  })
})

function stripKey(p: ProviderView): Omit<ProviderView, 'apiKey'> {
  const { apiKey: _key, ...rest } = p
  return rest
}
