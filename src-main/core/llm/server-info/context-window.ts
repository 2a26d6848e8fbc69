/**
 * The context window a turn fits its request into, first match wins: an override (the
 * CLI's `--context-window`), the window the provider's settings give this model, what the
 * server says, a table of well-known models, the settings' default. For Ollama it also decides the `num_ctx` Cairn asks for through the native API.
 */
import type { ServerModelInfo } from './discover'
import { knownContextWindow } from './known-windows'
import { OLLAMA_DEFAULT_NUM_CTX } from './ollama-info'

export interface WindowOptions {
  /** `--context-window` for one CLI run */
  override?: number
  /** the window the provider's settings give this model */
  perModel?: number
  /** requests go through Ollama's native API, which sets `num_ctx` */
  ollamaNative: boolean
  /** the largest `num_ctx` Cairn asks Ollama for */
  ollamaMaxContext: number
  /** the settings' window, used when nothing else says */
  fallback: number
}

export interface WindowChoice {
  tokens: number
  /** where it came from, in words */
  source: string
  /** Ollama's native API: the `num_ctx` to send (null: send none) */
  ollamaNumCtx: number | null
  /** something the user should know once (a window far below what the model can do) */
  notice: string | null
}

export function chooseContextWindow(
  info: ServerModelInfo | null,
  model: string,
  o: WindowOptions,
): WindowChoice {
  const base = { ollamaNumCtx: null, notice: null }
  const ollama = info?.kind === 'ollama' ? info.ollama : null
  let numCtx: number | null = null
  if (info?.kind === 'ollama' && o.ollamaNative) {
    // the settings' window is only a guess at the model's (and 0 there turns fitting off)
    const wanted =
      ollama?.trainedContext ??
      knownContextWindow(model) ??
      (o.fallback > 0 ? o.fallback : o.ollamaMaxContext)
    numCtx = Math.max(256, Math.min(wanted, o.ollamaMaxContext))
  }
  if (o.override !== undefined && o.override > 0) {
    // the model gets what the run says, and Ollama is asked for the same
    return {
      ...base,
      tokens: o.override,
      source: '--context-window',
      ollamaNumCtx: numCtx === null ? null : o.override,
    }
  }
  if (o.perModel !== undefined && o.perModel > 0) {
    return {
      ...base,
      tokens: o.perModel,
      source: `the provider's settings for ${model}`,
      ollamaNumCtx: numCtx === null ? null : o.perModel,
    }
  }
  if (numCtx !== null) {
    const trained = ollama?.trainedContext
    return {
      ...base,
      tokens: numCtx,
      source: trained
        ? `num_ctx sent to Ollama: the model's trained ${trained}, at most the settings' ${o.ollamaMaxContext}`
        : `num_ctx sent to Ollama (at most the settings' ${o.ollamaMaxContext})`,
      ollamaNumCtx: numCtx,
    }
  }
  if (info?.kind === 'ollama') {
    const loaded = ollama?.loadedContext ?? ollama?.modelfileNumCtx ?? OLLAMA_DEFAULT_NUM_CTX
    const trained = ollama?.trainedContext ?? null
    return {
      ...base,
      tokens: loaded,
      source: ollama?.loadedContext
        ? 'Ollama /api/ps (loaded num_ctx)'
        : ollama?.modelfileNumCtx
          ? "the model's Modelfile (num_ctx)"
          : "Ollama's default num_ctx",
      notice:
        trained !== null && loaded * 2 <= trained
          ? `Ollama runs ${model} with a context window of ${loaded} tokens, though the model takes ${trained}; ` +
            'older parts of a long conversation are cut. Turn on "Use Ollama\'s native API" in the provider\'s settings ' +
            '(Cairn then asks for the full window, up to its limit), or set num_ctx for the model in Ollama.'
          : null,
    }
  }
  if (info?.contextWindow) {
    return { ...base, tokens: info.contextWindow, source: info.contextSource ?? 'the server' }
  }
  const known = knownContextWindow(model)
  if (known !== null) return { ...base, tokens: known, source: 'the table of known models' }
  return { ...base, tokens: o.fallback, source: 'the settings (limits.contextTokens)' }
}
