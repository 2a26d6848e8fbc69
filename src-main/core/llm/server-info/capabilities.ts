/**
 * What a kind of server can do, and what one model on it can do. The table per kind says
 * what the server's API offers; a model's own entry (from the server's model-info endpoint)
 * says what the model takes. `null` means nobody said: Cairn then behaves as before
 * (tools sent, images only when the provider's settings say so).
 */

/** The kinds of server Cairn tells apart. `openai-compatible` is any other endpoint. */
export type ProviderKind =
  | 'openai'
  | 'openrouter'
  | 'ollama'
  | 'lmstudio'
  | 'llamacpp'
  | 'vllm'
  | 'cairn-local'
  | 'openai-compatible'

/**
 * How a model's thinking is switched on or off, where it can be:
 * `reasoning_effort` (OpenAI reasoning models), `think` (Ollama's native API),
 * `enable_thinking` (`chat_template_kwargs`, Qwen 3 on vLLM and llama.cpp),
 * `reasoning` (OpenRouter's `reasoning.enabled`).
 */
export type ThinkingControl = 'reasoning_effort' | 'think' | 'enable_thinking' | 'reasoning'

/** What the server's API offers, whatever the model. */
export interface KindCapabilities {
  /** a request can say how long the model stays loaded (`keep_alive`) */
  keepAlive: boolean
  /** the server says each model's context window */
  contextApi: boolean
  /** `response_format: {type: 'json_object'}` is understood */
  jsonMode: boolean
  /** the server reports each model's capabilities (tools, vision, thinking) */
  modelCapabilityApi: boolean
}

export const KIND_CAPABILITIES: Readonly<Record<ProviderKind, KindCapabilities>> = {
  openai: { keepAlive: false, contextApi: false, jsonMode: true, modelCapabilityApi: false },
  openrouter: { keepAlive: false, contextApi: true, jsonMode: true, modelCapabilityApi: true },
  ollama: { keepAlive: true, contextApi: true, jsonMode: true, modelCapabilityApi: true },
  lmstudio: { keepAlive: false, contextApi: true, jsonMode: true, modelCapabilityApi: true },
  llamacpp: { keepAlive: false, contextApi: true, jsonMode: true, modelCapabilityApi: true },
  vllm: { keepAlive: false, contextApi: true, jsonMode: true, modelCapabilityApi: false },
  'cairn-local': { keepAlive: false, contextApi: true, jsonMode: false, modelCapabilityApi: true },
  'openai-compatible': {
    keepAlive: false,
    contextApi: false,
    jsonMode: false,
    modelCapabilityApi: false,
  },
}

/** What one model takes; null where the server did not say. */
export interface ModelCapabilities {
  tools: boolean | null
  vision: boolean | null
  /** the model can think (reason before answering) */
  thinking: boolean | null
  /** how its thinking is switched, when it can be */
  thinkingControl: ThinkingControl | null
}

export const UNKNOWN_MODEL: Readonly<ModelCapabilities> = Object.freeze({
  tools: null,
  vision: null,
  thinking: null,
  thinkingControl: null,
})

/** OpenAI's reasoning models: o1, o3, o4-mini, gpt-5 and their dated variants. */
export function isOpenAiReasoningModel(model: string): boolean {
  const m = model.toLowerCase().replace(/^openai\//, '')
  return /^o\d/.test(m) || m.startsWith('gpt-5')
}

/** Qwen 3 models switch thinking with `chat_template_kwargs.enable_thinking`. */
export function isQwen3(model: string): boolean {
  return /qwen-?3/i.test(model)
}

/** The thinking control by kind and model name alone (before the server said anything). */
export function thinkingControlByName(kind: ProviderKind, model: string): ThinkingControl | null {
  if ((kind === 'openai' || kind === 'openai-compatible') && isOpenAiReasoningModel(model))
    return 'reasoning_effort'
  if ((kind === 'vllm' || kind === 'llamacpp') && isQwen3(model)) return 'enable_thinking'
  return null
}

/**
 * The request body fields that carry the user's thinking choice, for the control the model
 * has. `undefined` (no choice) sends nothing, so the server's default stands; Ollama's
 * `think` is set by the native client itself.
 */
export function thinkingParams(
  control: ThinkingControl | null,
  wanted: boolean | undefined,
): Record<string, unknown> {
  if (wanted === undefined || control === null) return {}
  switch (control) {
    case 'reasoning_effort':
      return { reasoning_effort: wanted ? 'high' : 'low' }
    case 'enable_thinking':
      return { chat_template_kwargs: { enable_thinking: wanted } }
    case 'reasoning':
      return { reasoning: { enabled: wanted } }
    case 'think':
      return {}
  }
}
