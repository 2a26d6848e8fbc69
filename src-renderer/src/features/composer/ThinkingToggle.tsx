/**
 * "Thinking", beside the model: switches the model's thinking for the provider in use, and
 * is there only where it works: a provider from the settings (not the environment) whose
 * server says the chat's model can switch its thinking (Ollama through its native API,
 * OpenAI's reasoning models, Qwen 3 on vLLM and llama.cpp, OpenRouter).
 */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import { useT } from '../../i18n'
import { usePlatform } from '../../state/context'
import { call, useSettings } from '../../state/queries'
import { useProviderStatus } from '../../state/provider-queries'
import { useSaveSettings } from '../../ui/forms/use-save-settings'
import { useChatModel } from './use-chat-model'

export function ThinkingToggle(): JSX.Element | null {
  const { bridge } = usePlatform()
  const settings = useSettings()
  const status = useProviderStatus()
  const model = useChatModel()
  const saver = useSaveSettings()
  const t = useT()
  const s = settings.data
  const active = s?.providers.find((p) => p.id === s.activeProviderId) ?? null
  const usable = active !== null && model !== null && status.data?.source === 'settings'
  const info = useQuery({
    queryKey: ['providers.info', active?.baseURL, model, active?.ollamaNativeApi],
    queryFn: () =>
      call(bridge, 'providers.info', {
        baseURL: active!.baseURL,
        model: model!,
        ...(active!.ollamaNativeApi === false ? { ollamaNativeApi: false } : {}),
      }),
    enabled: usable,
    staleTime: 5 * 60_000,
    retry: false,
  })
  const control = info.data?.model?.thinkingControl ?? null
  const ollamaCompatible = info.data?.kind === 'ollama' && active?.ollamaNativeApi === false
  if (!usable || !s || !active || control === null || ollamaCompatible) return null
  const on = active.thinking ?? true
  const toggle = (): void => {
    const providers = s.providers.map(({ apiKey: _key, ...p }) =>
      p.id === active.id ? { ...p, thinking: !on } : p,
    )
    void saver.save({ providers })
  }
  return (
    <button
      type="button"
      className="thinking-toggle"
      aria-pressed={on}
      disabled={saver.state === 'saving'}
      title={
        saver.error ??
        t(on ? 'composer.thinkingOn' : 'composer.thinkingOff', { model, provider: active.name })
      }
      onClick={toggle}
    >
      {t('composer.thinking')}
    </button>
  )
}
