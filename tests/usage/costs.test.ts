/**
 * What answers cost, end to end: a turn on the scripted server (real HTTP, the real
 * `openai` SDK, the real SQLite) is priced from the shipped table with the cached input
 * the server reported, stored with its price, summed in the chat; a price the user sets
 * prices the next answers and leaves the stored ones as they were; `usage.report` (what
 * Settings › Usage shows) and `cairn usage --json` give the same figures for the same data.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UsageReport } from '../../src-preload/contract/usage'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { runCli } from '../support/cli'
import { openChatHost, NO_LOCAL_SERVERS, type ChatHost } from '../support/host'
import { textReply } from '../support/openai-server'

let h: ChatHost
let b: TestBridge

beforeAll(async () => {
  h = await openChatHost({ prefix: 'cairn-costs-', models: ['gpt-4o-2024-08-06'] })
  b = h.b
})
afterAll(async () => h.stop())

async function ask(text: string, sessionId?: string) {
  const sent = unwrap(await b.request('chat.send', { text, ...(sessionId ? { sessionId } : {}) }))
  const usage = waitForEvent(b, 'agent', (e) => e.turnId === sent.turnId && e.type === 'usage')
  await waitForEvent(b, 'agent', (e) => e.turnId === sent.turnId && e.type === 'turn_end')
  return { sessionId: sent.sessionId, usage: await usage }
}

describe('what answers cost', () => {
  let sessionId: string

  it("prices an answer from the shipped table with the server's cached tokens, and keeps the price with it", async () => {
    h.server.enqueue(
      textReply('Granite is igneous.', {
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 500,
          prompt_tokens_details: { cached_tokens: 400 },
        },
      }),
    )
    const first = await ask('granite?')
    sessionId = first.sessionId
    // gpt-4o: $2.50 input, $1.25 cached input, $10 output per million tokens
    // 600 × 2.5 + 400 × 1.25 + 500 × 10 = 7000 millionths of a dollar
    expect(first.usage).toMatchObject({ type: 'usage', cost: 0.007, turnCost: 0.007 })
    const got = unwrap(await b.request('sessions.get', { id: sessionId }))
    const answer = got.messages.find((m) => m.role === 'assistant')!
    expect(answer.usage).toMatchObject({
      inputTokens: 1000,
      outputTokens: 500,
      cachedInputTokens: 400,
    })
    expect(answer.price).toEqual({ input: 2.5, output: 10, cachedInput: 1.25, source: 'table' })
    expect(answer.cost).toBe(0.007)
    expect(got.session.usage.cost).toBe(0.007)
  })

  it('a price the user sets prices the next answers; the stored ones keep theirs', async () => {
    unwrap(
      await b.request('settings.update', {
        usage: { monthlyBudget: 0.01, prices: { 'gpt-4o-2024-08-06': { input: 1, output: 2 } } },
      }),
    )
    h.server.enqueue(
      textReply('Basalt is volcanic.', { usage: { prompt_tokens: 2000, completion_tokens: 1000 } }),
    )
    const second = await ask('basalt?', sessionId)
    // 2000 × 1 + 1000 × 2 = 4000 millionths
    expect(second.usage).toMatchObject({ cost: 0.004 })
    const got = unwrap(await b.request('sessions.get', { id: sessionId }))
    const answers = got.messages.filter((m) => m.role === 'assistant')
    expect(answers.map((m) => [m.cost, m.price?.source])).toEqual([
      [0.007, 'table'],
      [0.004, 'user'],
    ])
    expect(got.session.usage.cost).toBe(0.011)
    // $0.011 of a $0.01 budget: over it
    expect(unwrap(await b.request('usage.budget', {}))).toMatchObject({
      monthlyBudget: 0.01,
      spent: 0.011,
      level: 'exceeded',
    })
  })

  it('refuses a price that is not one, and keeps the settings as they were', async () => {
    const bad = await b.request('settings.update', {
      usage: { monthlyBudget: null, prices: { m: { input: -1, output: 2 } } },
    })
    expect(bad.ok).toBe(false)
    const s = unwrap(await b.request('settings.get', {}))
    expect(s.usage.prices['gpt-4o-2024-08-06']).toEqual({ input: 1, output: 2 })
  })

  it('usage.report sums by model, provider, day and chat; an estimated answer is said', async () => {
    h.server.enqueue(textReply('Marble.', { usage: null }))
    await ask('marble?', sessionId)
    const byModel = unwrap(await b.request('usage.report', { by: 'model' }))
    expect(byModel.rows).toHaveLength(1)
    expect(byModel.rows[0]).toMatchObject({
      key: 'gpt-4o-2024-08-06',
      answers: 3,
      cachedInputTokens: 400,
      estimatedAnswers: 1,
      unpricedAnswers: 0,
    })
    // the third answer's tokens are Cairn's estimate, priced at the user's price
    const r = byModel.rows[0]!
    expect(r.inputTokens).toBeGreaterThan(3000)
    expect(byModel.total).toMatchObject({ inputTokens: r.inputTokens, cost: r.cost })
    expect(r.cost).toBeCloseTo(
      0.011 + ((r.inputTokens - 3000) * 1 + (r.outputTokens - 1500) * 2) / 1e6,
      8,
    )
    const byChat = unwrap(await b.request('usage.report', { by: 'session' }))
    expect(byChat.rows.map((r) => [r.key, r.label])).toEqual([[sessionId, 'granite?']])
    const byDay = unwrap(await b.request('usage.report', { by: 'day' }))
    expect(byDay.rows).toHaveLength(1)
    expect(byDay.rows[0]!.key).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const byProvider = unwrap(await b.request('usage.report', { by: 'provider' }))
    expect(byProvider.rows).toHaveLength(1)
    const future = unwrap(
      await b.request('usage.report', { by: 'model', since: Date.now() + 86_400_000 }),
    )
    expect(future.rows).toEqual([])
    expect(future.total).toMatchObject({ answers: 0, cost: null })
  })

  it('cairn usage --json gives the figures the window shows for the same data', async () => {
    const env = { ...NO_LOCAL_SERVERS, CAIRN_DATA_DIR: join(h.dir, 'data') }
    for (const by of ['model', 'provider', 'day'] as const) {
      const window = unwrap(await b.request('usage.report', { by }))
      const cli = await runCli(['usage', '--json', '--by', by], { env })
      expect(cli.stderr).toBe('')
      expect(cli.code).toBe(0)
      expect(JSON.parse(cli.stdout) as UsageReport).toEqual(window)
    }
    const text = await runCli(['usage', '--by', 'chat'], { env })
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^chat +answers +input +cached +output +cost$/m)
    expect(text.stdout).toMatch(/^granite\? +3 /m)
    expect(text.stdout).toContain('1 answer(s) had no usage from the server')
    expect(text.stdout).toMatch(/This month: \$0\.01\d of the \$0\.010 budget \(1\d\d %\)\./)
    const bad = await runCli(['usage', '--since', 'yesterday'], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--since takes a date as YYYY-MM-DD')
  }, 60_000)
})
