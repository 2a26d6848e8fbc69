/**
 * What an answer costs: the model's price (the user's, a local server's nothing, the
 * provider's published one, the shipped table's) and the cost of a usage at that price.
 * Prices are US dollars per million tokens.
 */
import type { Usage } from '../../../src-preload/contract/dto'
import type { ModelPrice, ModelPriceRates } from '../../../src-preload/contract/usage'
import type { ProviderKind } from './server-info/capabilities'
import { tablePrice } from './price-table'

/**
 * Servers that run models on the user's machine: Ollama, LM Studio, llama.cpp and Cairn's
 * own runtime. Known by what the server says it is, not by its address: a proxy on this
 * machine in front of a paid API still costs.
 */
const LOCAL_KINDS: ReadonlySet<ProviderKind> = new Set<ProviderKind>([
  'ollama',
  'lmstudio',
  'llamacpp',
  'cairn-local',
])

export function isLocalKind(kind: ProviderKind | null | undefined): boolean {
  return kind !== null && kind !== undefined && LOCAL_KINDS.has(kind)
}

const FREE: ModelPriceRates = { input: 0, output: 0 }

export interface PriceQuery {
  model: string
  /** the server is a local model server (its kind, or the built-in `local` provider) */
  local: boolean
  /** what the provider's model list says, when it publishes prices */
  published?: ModelPriceRates | null
  /** the user's prices by model name (settings `usage.prices`) */
  user?: Readonly<Record<string, ModelPriceRates>>
}

/** The price in force for a model, and where it comes from; null when none is known. */
export function resolvePrice(q: PriceQuery): ModelPrice | null {
  const own = q.user?.[q.model]
  if (own) return { ...own, source: 'user' }
  if (q.local) return { ...FREE, source: 'local' }
  if (q.published) return { ...q.published, source: 'provider' }
  const table = tablePrice(q.model)
  return table ? { ...table, source: 'table' } : null
}

/**
 * The cost of one answer's usage, in US dollars. Cached input tokens are part of the
 * input tokens (as servers count them) and reasoning tokens part of the output tokens;
 * each is priced apart only where the price says so.
 */
export function costOf(usage: Usage, price: ModelPriceRates): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens)
  const reasoning =
    price.reasoning === undefined ? 0 : Math.min(usage.reasoningTokens ?? 0, usage.outputTokens)
  const micro =
    (usage.inputTokens - cached) * price.input +
    cached * (price.cachedInput ?? price.input) +
    (usage.outputTokens - reasoning) * price.output +
    reasoning * (price.reasoning ?? price.output)
  return roundCost(micro / 1_000_000)
}

/** dollars kept to a millionth of a cent, so sums do not drift in their last digits */
export function roundCost(usd: number): number {
  return Math.round(usd * 1e8) / 1e8
}

/**
 * A price per token as a provider's list gives it (OpenRouter: `"0.000003"`), per million
 * tokens; null for what is not a price (missing, negative: "varies", not a number).
 */
export function perMillion(perToken: unknown): number | null {
  const n = typeof perToken === 'string' ? Number(perToken) : perToken
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return null
  return Math.round(n * 1e6 * 1e6) / 1e6
}
