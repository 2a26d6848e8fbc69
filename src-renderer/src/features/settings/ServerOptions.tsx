/**
 * What the server at the typed base URL is and what it says about the default model, and
 * the options that only some servers have: Ollama's native API, its largest context window
 * and how long it keeps a model loaded; a thinking switch only for a model whose thinking
 * can be switched (and, on Ollama, only through its native API).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useState, type JSX } from 'react'
import type { ServerInfoView } from '../../../../src-preload/contract/app-dto'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { Field, TextField } from '../../ui/forms/Field'
import type { DraftErrors, ProviderDraft } from './provider-draft'

export interface ServerOptionsProps {
  draft: ProviderDraft
  errors: DraftErrors
  /** the URL's problem, if any: then the server is not asked */
  urlProblem: string | null
  set: (patch: Partial<ProviderDraft>) => void
}

const KIND_NAMES: Record<string, string> = {
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  vllm: 'vLLM',
  openrouter: 'OpenRouter',
  openai: 'OpenAI',
  'openai-compatible': 'An OpenAI-compatible server',
}

/** `value`, once it has stopped changing for `ms` */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}

function describe(info: ServerInfoView, model: string): string {
  const kind = KIND_NAMES[info.kind] ?? info.kind
  if (!info.model) return `${kind}.`
  const takes: string[] = []
  const caps = info.model
  if (caps.tools !== null) takes.push(caps.tools ? 'uses tools' : 'cannot use tools')
  if (caps.vision !== null) takes.push(caps.vision ? 'takes images' : 'takes no images')
  if (caps.thinking) takes.push('thinks')
  const window = info.contextWindow
    ? ` Context window: ${info.contextWindow.tokens} tokens (${info.contextWindow.source}).`
    : ''
  return `${kind}. ${model}${takes.length ? `: ${takes.join(', ')}` : ''}.${window}`
}

export function ServerOptions(props: ServerOptionsProps): JSX.Element | null {
  const { draft: d, set } = props
  const { asked, info, model } = useServerInfo(d, props.urlProblem)
  if (!asked) return null
  const data = info.data
  const ollama = data?.kind === 'ollama'
  const thinkingSwitch = data?.model?.thinkingControl != null && (!ollama || d.ollamaNativeApi)
  return (
    <fieldset className="server-options">
      <legend>What the server supports</legend>
      <p role="status" className="meta">
        {info.isFetching && !data
          ? 'Asking the server…'
          : info.isError
            ? `The server could not be asked: ${info.error.message}`
            : data
              ? describe(data, model)
              : ''}
        {data?.problems.length ? ` ${data.problems.join(' ')}` : ''}
      </p>
      {ollama ? <OllamaOptions {...props} /> : null}
      {thinkingSwitch ? (
        <Field
          label="Thinking"
          id="provider-thinking"
          hint="Whether the model thinks before it answers. The server's default leaves it to the server."
        >
          {(ids) => (
            <select
              {...ids}
              value={d.thinking}
              onChange={(e) => set({ thinking: e.target.value as ProviderDraft['thinking'] })}
            >
              <option value="default">The server&apos;s default</option>
              <option value="on">On</option>
              <option value="off">Off</option>
            </select>
          )}
        </Field>
      ) : null}
    </fieldset>
  )
}

/**
 * What the server at the draft's base URL says about itself and the default model, asked
 * once both have stopped changing (not while the URL is wrong).
 */
function useServerInfo(d: ProviderDraft, urlProblem: string | null) {
  const { bridge } = usePlatform()
  const baseURL = useSettled(d.baseURL.trim(), 600)
  const model = useSettled(d.defaultModel.trim(), 600)
  const maxContext = /^\d+$/.test(d.ollamaMaxContext.trim())
    ? Number(d.ollamaMaxContext.trim())
    : undefined
  const asked = !urlProblem && baseURL !== ''
  const info = useQuery({
    queryKey: ['providers.info', baseURL, model, d.ollamaNativeApi, maxContext],
    queryFn: () =>
      call(bridge, 'providers.info', {
        baseURL,
        fresh: true,
        ...(model ? { model } : {}),
        ollamaNativeApi: d.ollamaNativeApi,
        ...(maxContext !== undefined && maxContext >= 256 ? { ollamaMaxContext: maxContext } : {}),
      }),
    enabled: asked,
    // the options stay while the server is asked again (a box ticked, a model typed)
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  })
  return { asked, info, model }
}

/** Ollama's native API, and with it the largest context window and how long a model stays loaded */
function OllamaOptions({ draft: d, errors, set }: ServerOptionsProps): JSX.Element {
  return (
    <>
      <label className="check-option">
        <input
          type="checkbox"
          checked={d.ollamaNativeApi}
          aria-describedby="provider-ollamaNativeApi-hint"
          onChange={(e) => set({ ollamaNativeApi: e.target.checked })}
        />
        Use Ollama&apos;s native API
      </label>
      <span id="provider-ollamaNativeApi-hint" className="meta">
        Lets Cairn set the model&apos;s context window, how long it stays loaded and its thinking.
        Off: Ollama&apos;s OpenAI-compatible endpoint, with the window Ollama loads the model with.
      </span>
      {d.ollamaNativeApi ? (
        <>
          <TextField
            label="Largest context window (tokens)"
            id="provider-ollamaMaxContext"
            error={errors.ollamaMaxContext}
            hint="Cairn asks for the model's trained context, up to this (default 32 768). A larger window needs more memory."
            inputMode="numeric"
            value={d.ollamaMaxContext}
            placeholder="32768"
            onValue={(ollamaMaxContext) => set({ ollamaMaxContext })}
          />
          <TextField
            label="Keep the model loaded for"
            id="provider-keepAlive"
            error={errors.keepAlive}
            hint="Such as 30s, 5m or 1h; -1 keeps it loaded. Empty: Ollama's default."
            value={d.keepAlive}
            placeholder="5m"
            onValue={(keepAlive) => set({ keepAlive })}
            spellCheck={false}
          />
        </>
      ) : null}
    </>
  )
}
