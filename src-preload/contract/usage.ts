/**
 * What answers cost: a model's price (US dollars per million tokens), where it came from,
 * and the usage report the window's Settings › Usage and `cairn usage` both show.
 */
import { z } from 'zod'
import { MAX_MONTHLY_BUDGET, MAX_PRICE_PER_MILLION } from './usage-format'

export { formatUsd } from './usage-format'

const perMillion = z.number().min(0).max(MAX_PRICE_PER_MILLION)

/** A model's price, in US dollars per million tokens. */
export const modelPriceSchema = z.object({
  input: perMillion,
  output: perMillion,
  /** input tokens the provider read from its cache; unset: the input price */
  cachedInput: perMillion.optional(),
  /** reasoning tokens, where they are billed apart from the answer; unset: the output price */
  reasoning: perMillion.optional(),
})
export type ModelPriceRates = z.infer<typeof modelPriceSchema>

/**
 * Where a price came from: the provider's model list, the table shipped with Cairn, the
 * user's own (Settings › Usage), or a local model server (which costs nothing).
 */
export type PriceSource = 'provider' | 'table' | 'user' | 'local'

export interface ModelPrice extends ModelPriceRates {
  source: PriceSource
}

/** The monthly budget: a warning at 80 % and at 100 % of it (null: no budget). */
export const usageSettingsSchema = z.object({
  monthlyBudget: z.number().positive().max(MAX_MONTHLY_BUDGET).nullable(),
  /** prices the user sets per model name, over the provider's and the table's */
  prices: z.record(z.string().min(1).max(500), modelPriceSchema),
})
export type UsageSettings = z.infer<typeof usageSettingsSchema>

export const USAGE_GROUPS = ['day', 'model', 'provider', 'session'] as const
export type UsageGroup = (typeof USAGE_GROUPS)[number]

/** The token and cost sums of one group (a day, a model, a provider or a chat). */
export interface UsageRow {
  /** the group: `2026-11-28` (the day in the host's time zone), the model, the provider, the session id */
  key: string
  /** what the window shows: the provider's name, the chat's title */
  label: string
  answers: number
  inputTokens: number
  outputTokens: number
  cachedInputTokens: number
  /** US dollars; null when no answer of the group has a price */
  cost: number | null
  /** answers whose tokens Cairn estimated (the server reported none) */
  estimatedAnswers: number
  /** answers without any price (neither stored with it nor known now): their cost is missing */
  unpricedAnswers: number
  /** answers stored without a price, priced now with the prices in force */
  repricedAnswers: number
}

export interface UsageReport {
  /** the period: from `since` (inclusive) to `until` (exclusive), epoch ms */
  since: number | null
  until: number | null
  by: UsageGroup
  rows: UsageRow[]
  total: Omit<UsageRow, 'key' | 'label'>
}

/** This month's spending against the budget, for the warnings. */
export interface BudgetStatus {
  monthlyBudget: number | null
  /** US dollars spent since the first day of this month (host time) */
  spent: number
  /** spent over budget, in percent (null without a budget) */
  percent: number | null
  level: 'none' | 'warning' | 'exceeded'
}
