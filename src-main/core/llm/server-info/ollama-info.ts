/**
 * What Ollama says about a model through its native API: `/api/show` (capabilities, the
 * trained context length, a `num_ctx` set in the Modelfile) and `/api/ps` (the context the
 * model is loaded with, when it is loaded).
 */
import { z } from 'zod'
import type { ModelCapabilities } from './capabilities'
import { fetchJson, type InfoFetchOptions } from './fetch-json'

export const OllamaVersion = z.object({ version: z.string() })

const OllamaShow = z.object({
  capabilities: z.array(z.string()).optional(),
  model_info: z.record(z.string(), z.unknown()).optional(),
  parameters: z.string().optional(),
})

const OllamaPs = z.object({
  models: z
    .array(
      z.object({
        name: z.string().optional(),
        model: z.string().optional(),
        context_length: z.number().int().positive().optional(),
      }),
    )
    .nullable()
    .optional(),
})

/** Ollama's window when neither the Modelfile nor the request sets `num_ctx`. */
export const OLLAMA_DEFAULT_NUM_CTX = 4_096

export interface OllamaModelInfo {
  capabilities: ModelCapabilities
  /** the model's trained maximum (`<arch>.context_length`) */
  trainedContext: number | null
  /** `num_ctx` from the Modelfile's parameters */
  modelfileNumCtx: number | null
  /** the context it is loaded with right now (`/api/ps`), null when not loaded */
  loadedContext: number | null
}

export async function ollamaModelInfo(
  root: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<OllamaModelInfo> {
  const show = await fetchJson(`${root}/api/show`, OllamaShow, { ...opts, body: { model } })
  let loadedContext: number | null = null
  try {
    const ps = await fetchJson(`${root}/api/ps`, OllamaPs, opts)
    const running = (ps.models ?? []).find(
      (m) => sameModel(m.name, model) || sameModel(m.model, model),
    )
    loadedContext = running?.context_length ?? null
  } catch {
    // /api/ps only refines the window; an old server without context_length is fine
  }
  const caps = show.capabilities
  return {
    capabilities: {
      tools: caps ? caps.includes('tools') : null,
      vision: caps ? caps.includes('vision') : null,
      thinking: caps ? caps.includes('thinking') : null,
      thinkingControl: caps?.includes('thinking') ? 'think' : null,
    },
    trainedContext: trainedContext(show.model_info),
    modelfileNumCtx: numCtxParameter(show.parameters),
    loadedContext,
  }
}

/** `llama3.1` names `llama3.1:latest`. */
function sameModel(a: string | undefined, b: string): boolean {
  if (!a) return false
  const tag = (s: string): string => (s.includes(':') ? s : `${s}:latest`)
  return tag(a) === tag(b)
}

function trainedContext(info: Record<string, unknown> | undefined): number | null {
  if (!info) return null
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith('.context_length') && Number.isInteger(value) && (value as number) > 0)
      return value as number
  }
  return null
}

function numCtxParameter(parameters: string | undefined): number | null {
  const m = parameters?.match(/^\s*num_ctx\s+(\d+)\s*$/m)
  const n = m ? Number(m[1]) : NaN
  return Number.isSafeInteger(n) && n > 0 ? n : null
}
