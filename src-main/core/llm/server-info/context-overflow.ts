/**
 * A request the server refused because it does not fit the model's context
 * (`context_overflow`) becomes an error that names the window Cairn fitted the
 * conversation into, where that number came from, and what to do.
 */
import type { ProviderKind } from './capabilities'
import type { WindowChoice } from './context-window'
import { LlmError } from '../types'

/** the server refused the request as too long (`core/llm/errors.ts` reads its answer) */
export function isContextOverflow(e: unknown): e is LlmError {
  return e instanceof LlmError && e.code === 'context_overflow'
}

function advice(kind: ProviderKind | null, ollamaNative: boolean): string {
  switch (kind) {
    case 'ollama':
      return ollamaNative
        ? 'raise "Largest context window" in the provider\'s settings (Ollama needs the memory for it)'
        : "turn on \"Use Ollama's native API\" in the provider's settings so Cairn can ask Ollama for the model's full window"
    case 'llamacpp':
      return 'restart llama-server with a larger --ctx-size (-c)'
    case 'lmstudio':
      return 'load the model in LM Studio with a larger context length'
    case 'cairn-local':
      return 'raise "Largest context window" in Settings › Models (up to what the model was trained with), turn off tools the chat does not need, or choose a model trained with a longer context'
    default:
      return 'lower limits.contextTokens in the settings (or pass --context-window) so Cairn shortens the conversation sooner'
  }
}

export function explainContextOverflow(
  e: LlmError,
  window: WindowChoice,
  kind: ProviderKind | null,
): LlmError {
  const message =
    `${e.message.replace(/\.?\s*$/, '')}. The conversation was fitted into a context window of ` +
    `${window.tokens} tokens (from ${window.source}), and the server refused it as too long. ` +
    `Start a new chat, or ${advice(kind, window.ollamaNumCtx !== null)}.`
  return new LlmError('context_overflow', message, {
    status: e.status,
    retryable: false,
    ...(e.partial ? { partial: e.partial } : {}),
    cause: e,
  })
}
