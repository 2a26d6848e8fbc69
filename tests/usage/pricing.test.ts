/** Prices: where they come from, in which order, and the cost of a usage at a price. */
import { describe, expect, it } from 'vitest'
import { tableModelName, tablePrice } from '../../src-main/core/llm/price-table'
import { costOf, isLocalKind, perMillion, resolvePrice } from '../../src-main/core/llm/pricing'
import { openRouterPrice } from '../../src-main/core/llm/server-info/model-lists'
import { formatUsd } from '../../src-preload/contract/usage'

describe('resolvePrice', () => {
  const published = { input: 3, output: 15 }
  it("takes the user's price first, then a local server's nothing, the provider's, the table's", () => {
    const user = { 'gpt-4o': { input: 1, output: 1 } }
    expect(resolvePrice({ model: 'gpt-4o', local: true, published, user })).toMatchObject({
      source: 'user',
      input: 1,
    })
    expect(resolvePrice({ model: 'gpt-4o', local: true, published })).toEqual({
      input: 0,
      output: 0,
      source: 'local',
    })
    expect(resolvePrice({ model: 'gpt-4o', local: false, published })).toEqual({
      ...published,
      source: 'provider',
    })
    expect(resolvePrice({ model: 'openai/gpt-4o-2024-08-06', local: false })).toMatchObject({
      source: 'table',
      input: 2.5,
      output: 10,
    })
    expect(resolvePrice({ model: 'my-finetune', local: false })).toBeNull()
  })

  it('knows a local server by its kind, not its address', () => {
    for (const k of ['ollama', 'lmstudio', 'llamacpp', 'cairn-local'] as const)
      expect(isLocalKind(k)).toBe(true)
    expect(isLocalKind('openrouter')).toBe(false)
    expect(isLocalKind(null)).toBe(false)
  })
})

describe('the shipped table', () => {
  it('finds a model without its vendor prefix or dated suffix', () => {
    expect(tableModelName('anthropic/claude-sonnet-4-20250514')).toBe('claude-sonnet-4')
    expect(tableModelName('GPT-4o-mini-2024-07-18')).toBe('gpt-4o-mini')
    expect(tablePrice('claude-sonnet-4-20250514')).toEqual({
      input: 3,
      output: 15,
      cachedInput: 0.3,
    })
    expect(tablePrice('llama3.2')).toBeNull()
  })
})

describe('costOf', () => {
  it('prices cached input and reasoning apart only where the price says so', () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      cachedInputTokens: 500_000,
      reasoningTokens: 400_000,
      estimated: false,
    }
    expect(costOf(usage, { input: 2, output: 8 })).toBe(10)
    expect(costOf(usage, { input: 2, output: 8, cachedInput: 0.5 })).toBe(1 + 0.25 + 8)
    expect(costOf(usage, { input: 2, output: 8, reasoning: 20 })).toBe(2 + 4.8 + 8)
    // counts a server got wrong (more cached than input) are capped, never negative
    expect(
      costOf({ ...usage, cachedInputTokens: 9e9 }, { input: 2, output: 0, cachedInput: 1 }),
    ).toBe(1)
  })
})

describe("OpenRouter's published prices", () => {
  it('reads its per-token strings as per-million prices; a missing or varying one is none', () => {
    expect(
      openRouterPrice({
        prompt: '0.000003',
        completion: '0.000015',
        input_cache_read: '0.0000003',
        internal_reasoning: '0',
      }),
    ).toEqual({ input: 3, output: 15, cachedInput: 0.3 })
    expect(openRouterPrice({ prompt: '-1', completion: '0.00001' })).toBeNull()
    expect(openRouterPrice({ prompt: 'free', completion: '0' })).toBeNull()
    expect(openRouterPrice(null)).toBeNull()
    expect(perMillion('0')).toBe(0)
  })
})

describe('formatUsd', () => {
  it('shows fractions of a cent with more digits', () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(0.00004)).toBe('<$0.0001')
    expect(formatUsd(0.0042)).toBe('$0.0042')
    expect(formatUsd(0.123)).toBe('$0.123')
    expect(formatUsd(12.345)).toBe('$12.35')
  })
})
