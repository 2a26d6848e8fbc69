/**
 * Prices of well-known models, shipped with Cairn for providers that publish none in their
 * model list. US dollars per million tokens. A model is found by its name, without a
 * vendor prefix (`openai/gpt-4o`) or a dated snapshot's suffix (`-2024-08-06`, `-20250514`).
 * The user's own price (Settings › Usage) wins over this table, and a provider's model list
 * (OpenRouter's) over both.
 */
import type { ModelPriceRates } from '../../../src-preload/contract/usage'

/** when the table was last checked against its sources */
export const PRICE_TABLE_DATE = '2025-08-15'

/** where each vendor's figures come from */
export const PRICE_TABLE_SOURCES: Readonly<Record<string, string>> = {
  openai: 'https://openai.com/api/pricing/ (standard tier)',
  anthropic: 'https://www.anthropic.com/pricing#api (cache reads as cached input)',
  google: 'https://ai.google.dev/gemini-api/docs/pricing (prompts up to 200k tokens)',
  deepseek: 'https://api-docs.deepseek.com/quick_start/pricing (standard hours)',
}

type Row = ModelPriceRates & { vendor: keyof typeof PRICE_TABLE_SOURCES & string }

const p = (vendor: Row['vendor'], input: number, output: number, cachedInput?: number): Row => ({
  vendor,
  input,
  output,
  ...(cachedInput !== undefined ? { cachedInput } : {}),
})

export const PRICE_TABLE: Readonly<Record<string, Row>> = {
  'gpt-5': p('openai', 1.25, 10, 0.125),
  'gpt-5-mini': p('openai', 0.25, 2, 0.025),
  'gpt-5-nano': p('openai', 0.05, 0.4, 0.005),
  'gpt-4.1': p('openai', 2, 8, 0.5),
  'gpt-4.1-mini': p('openai', 0.4, 1.6, 0.1),
  'gpt-4.1-nano': p('openai', 0.1, 0.4, 0.025),
  'gpt-4o': p('openai', 2.5, 10, 1.25),
  'gpt-4o-mini': p('openai', 0.15, 0.6, 0.075),
  o3: p('openai', 2, 8, 0.5),
  'o3-mini': p('openai', 1.1, 4.4, 0.55),
  'o4-mini': p('openai', 1.1, 4.4, 0.275),
  'claude-opus-4-1': p('anthropic', 15, 75, 1.5),
  'claude-opus-4': p('anthropic', 15, 75, 1.5),
  'claude-sonnet-4': p('anthropic', 3, 15, 0.3),
  'claude-3-7-sonnet': p('anthropic', 3, 15, 0.3),
  'claude-3-5-haiku': p('anthropic', 0.8, 4, 0.08),
  'gemini-2.5-pro': p('google', 1.25, 10, 0.31),
  'gemini-2.5-flash': p('google', 0.3, 2.5, 0.075),
  'gemini-2.0-flash': p('google', 0.1, 0.4, 0.025),
  'deepseek-chat': p('deepseek', 0.27, 1.1, 0.07),
  'deepseek-reasoner': p('deepseek', 0.55, 2.19, 0.14),
}

/** `openai/gpt-4o-2024-08-06` → `gpt-4o`; `claude-sonnet-4-20250514` → `claude-sonnet-4` */
export function tableModelName(model: string): string {
  const slash = model.lastIndexOf('/')
  let name = (slash >= 0 ? model.slice(slash + 1) : model).toLowerCase()
  name = name.replace(/-latest$/, '')
  name = name.replace(/-\d{4}-\d{2}-\d{2}$/, '').replace(/-\d{8}$/, '')
  return name
}

/** The shipped price of a model, or null when the table does not know it. */
export function tablePrice(model: string): ModelPriceRates | null {
  const row = PRICE_TABLE[tableModelName(model)]
  if (!row) return null
  const { vendor: _vendor, ...rates } = row
  return rates
}
