/**
 * What LM Studio (`/api/v0/models`), llama.cpp (`/props`), OpenRouter (`/models`) and vLLM
 * (`/v1/models` with `max_model_len`) say about a model: its context window and, where
 * they say it, what it takes.
 */
import { z } from 'zod'
import { UNKNOWN_MODEL, isQwen3, type ModelCapabilities } from './capabilities'
import { fetchJson, type InfoFetchOptions } from './fetch-json'
import type { ModelPriceRates } from '../../../../src-preload/contract/usage'
import { perMillion } from '../pricing'

export interface ListedModelInfo {
  capabilities: ModelCapabilities
  /** the window the server runs (or would run) the model with */
  contextWindow: number | null
  /** where contextWindow came from, for the turn log and messages */
  contextSource: string | null
  /** the price the server's list publishes (OpenRouter's), per million tokens */
  price?: ModelPriceRates | null
}

const positiveInt = z.number().int().positive()

/**
 * A model list whose entries are read one by one: an entry in a shape Cairn does not know
 * (a new kind of model, a field of another type) is skipped instead of failing the list.
 */
function modelList<T extends z.ZodType>(entry: T) {
  return z.array(z.unknown()).transform((items) =>
    items.flatMap((item): z.infer<T>[] => {
      const parsed = entry.safeParse(item)
      return parsed.success ? [parsed.data] : []
    }),
  )
}

export const LmStudioModels = z.object({
  data: modelList(
    z.object({
      id: z.string(),
      type: z.string().optional(),
      state: z.string().optional(),
      max_context_length: positiveInt.optional(),
      loaded_context_length: positiveInt.optional(),
      capabilities: z.array(z.string()).optional(),
    }),
  ),
})

export async function lmStudioModelInfo(
  root: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<ListedModelInfo | null> {
  const list = await fetchJson(`${root}/api/v0/models`, LmStudioModels, opts)
  const m = list.data.find((d) => d.id === model)
  if (!m) return null
  const loaded = m.loaded_context_length ?? null
  return {
    capabilities: {
      ...UNKNOWN_MODEL,
      vision: m.type === undefined ? null : m.type === 'vlm',
      // a model without native tool use still gets tools through LM Studio's own prompt format
      tools: m.capabilities?.includes('tool_use') ? true : null,
    },
    contextWindow: loaded ?? m.max_context_length ?? null,
    contextSource: loaded
      ? 'LM Studio (loaded context length)'
      : m.max_context_length
        ? 'LM Studio (maximum context length; the model is not loaded)'
        : null,
  }
}

export const LlamaCppProps = z.object({
  default_generation_settings: z.object({ n_ctx: positiveInt.optional() }).optional(),
  n_ctx: positiveInt.optional(),
  modalities: z.object({ vision: z.boolean().optional() }).optional(),
  chat_template: z.string().optional(),
})

export async function llamaCppModelInfo(
  root: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<ListedModelInfo> {
  const props = await fetchJson(`${root}/props`, LlamaCppProps, opts)
  const nCtx = props.default_generation_settings?.n_ctx ?? props.n_ctx ?? null
  const template = props.chat_template ?? ''
  const switchable = template.includes('enable_thinking') || isQwen3(model)
  return {
    capabilities: {
      ...UNKNOWN_MODEL,
      vision: props.modalities?.vision ?? null,
      thinking: switchable ? true : null,
      thinkingControl: switchable ? 'enable_thinking' : null,
    },
    contextWindow: nCtx,
    contextSource: nCtx ? 'llama.cpp /props (n_ctx)' : null,
  }
}

export const OpenRouterModels = z.object({
  data: modelList(
    z.object({
      id: z.string(),
      context_length: positiveInt.nullable().optional(),
      supported_parameters: z.array(z.string()).nullable().optional(),
      architecture: z
        .object({ input_modalities: z.array(z.string()).nullable().optional() })
        .nullable()
        .optional(),
      /** US dollars per token, as strings (`"0.000003"`; `"-1"`: it varies) */
      pricing: z
        .object({
          prompt: z.unknown().optional(),
          completion: z.unknown().optional(),
          input_cache_read: z.unknown().optional(),
          internal_reasoning: z.unknown().optional(),
        })
        .nullable()
        .optional(),
    }),
  ),
})

type OpenRouterPricing = z.infer<typeof OpenRouterModels>['data'][number]['pricing']

/** OpenRouter's prices per token, per million tokens; null without an input and output price */
export function openRouterPrice(pricing: OpenRouterPricing): ModelPriceRates | null {
  if (!pricing) return null
  const input = perMillion(pricing.prompt)
  const output = perMillion(pricing.completion)
  if (input === null || output === null) return null
  const cached = perMillion(pricing.input_cache_read)
  const reasoning = perMillion(pricing.internal_reasoning)
  return {
    input,
    output,
    ...(cached !== null ? { cachedInput: cached } : {}),
    // billed apart only when it differs from the answer's price
    ...(reasoning !== null && reasoning > 0 && reasoning !== output ? { reasoning } : {}),
  }
}

export async function openRouterModelInfo(
  baseURL: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<ListedModelInfo | null> {
  const list = await fetchJson(`${baseURL}/models`, OpenRouterModels, opts)
  const m = list.data.find((d) => d.id === model)
  if (!m) return null
  const params = m.supported_parameters ?? null
  const inputs = m.architecture?.input_modalities ?? null
  const reasons = params ? params.includes('reasoning') : null
  const info: ListedModelInfo = {
    capabilities: {
      tools: params ? params.includes('tools') : null,
      vision: inputs ? inputs.includes('image') : null,
      thinking: reasons,
      thinkingControl: reasons ? 'reasoning' : null,
    },
    contextWindow: m.context_length ?? null,
    contextSource: m.context_length ? 'OpenRouter model list (context_length)' : null,
  }
  const price = openRouterPrice(m.pricing)
  if (price) info.price = price
  return info
}

export const VllmModels = z.object({
  data: modelList(
    z.object({
      id: z.string(),
      owned_by: z.string().optional(),
      max_model_len: positiveInt.optional(),
    }),
  ),
})

/** Cairn's own runtime (`local`): each model's window and what it takes, from the GGUF file. */
export const CairnLocalModels = z.object({
  data: modelList(
    z.object({
      id: z.string(),
      owned_by: z.literal('cairn-local'),
      context_length: positiveInt,
      capabilities: z.object({ tools: z.boolean(), vision: z.boolean() }),
    }),
  ),
})

export async function cairnLocalModelInfo(
  base: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<ListedModelInfo> {
  const list = await fetchJson(`${base}/models`, CairnLocalModels, opts)
  const found = list.data.find((m) => m.id === model)
  return {
    capabilities: {
      ...UNKNOWN_MODEL,
      tools: found?.capabilities.tools ?? null,
      vision: found?.capabilities.vision ?? null,
    },
    contextWindow: found?.context_length ?? null,
    contextSource: found
      ? "Cairn's local runtime (the model's trained context, within memory)"
      : null,
  }
}
