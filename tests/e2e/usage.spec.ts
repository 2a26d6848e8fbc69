/**
 * What it costs, in the window: a priced answer shows its cost beside its tokens and the
 * chat header the chat's total; Settings › Usage shows the same figures as
 * `cairn usage --json` on the same data directory, the budget's warning, and your prices
 * (a price that is not one is refused and what was typed stays). Screenshots: light, dark,
 * narrow.
 */
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import type { UsageReport } from '../../src-preload/contract/usage'
import { runCli } from '../support/cli'
import { startScriptedServer, textReply, type ScriptedServer } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost | undefined
let model: ScriptedServer | undefined
test.afterEach(async () => {
  await host?.stop()
  await model?.close()
})

async function themes(page: Page, name: string): Promise<void> {
  await keepScreenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  // the settings screen follows the system's theme through CSS (no data-theme of its own)
  expect(await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")).toBe(true)
  await keepScreenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 420, height: 900 })
  await keepScreenshot(page, `${name}-narrow`)
  await page.setViewportSize(size)
}

test('an answer shows its cost, the chat its total, Settings › Usage the same figures as cairn usage', async ({
  page,
}) => {
  test.setTimeout(120_000)
  model = await startScriptedServer({ models: ['gpt-4o'] })
  host = await startWebHost({ model, env: { CAIRN_MODEL: 'gpt-4o' } })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(host.url)
  // gpt-4o from the shipped table: 600 × $2.50 + 400 × $1.25 (cached) + 500 × $10 per million
  model.enqueue(
    textReply('Granite is igneous.', {
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 500,
        prompt_tokens_details: { cached_tokens: 400 },
      },
    }),
  )
  await ask(page, 'What is granite?')
  await expect(lastAnswer(page)).toContainText('Granite is igneous.')
  await idle(page)
  await expect(lastAnswer(page).getByTitle("What this turn cost, at the model's price")).toHaveText(
    '$0.0070',
  )
  await expect(page.getByTitle('What this chat’s answers cost so far')).toHaveText('$0.0070')
  await themes(page, 'priced-answer')

  await page.evaluate("location.hash = '#/settings/usage'")
  const byModel = page.getByRole('table', { name: 'By model' })
  const row = byModel.getByRole('row', { name: /gpt-4o/ })
  await expect(row.getByRole('cell')).toHaveText(['1', '1,000', '400', '500', '$0.0070'])
  await expect(page.getByRole('img', { name: /^Cost by day/ })).toBeVisible()

  // the CLI reads the same data directory and gives the same figures
  const cli = await runCli(['usage', '--json', '--by', 'model'], {
    env: { CAIRN_DATA_DIR: join(host.dataDir, 'data') },
  })
  expect(cli.code).toBe(0)
  const report = JSON.parse(cli.stdout) as UsageReport
  expect(report.rows).toHaveLength(1)
  const r = report.rows[0]!
  await expect(row.getByRole('rowheader')).toHaveText(r.label)
  await expect(row.getByRole('cell')).toHaveText([
    String(r.answers),
    r.inputTokens.toLocaleString('en-US'),
    String(r.cachedInputTokens),
    String(r.outputTokens),
    '$0.0070',
  ])
  expect(r.cost).toBe(0.007)

  // a budget below what was spent: the alert says so
  await page.getByLabel('Monthly budget (US dollars)').fill('0.005')
  await page.getByRole('button', { name: 'Save budget' }).click()
  await expect(page.getByRole('form', { name: 'Monthly budget' }).getByRole('status')).toHaveText(
    'Saved',
  )
  await page.reload()
  await expect(page.getByRole('alert')).toContainText(
    'Over budget: $0.0070 spent this month, 140 %',
  )

  // a price that is not one is refused, what was typed stays; a good one is listed
  const prices = page.getByRole('form', { name: 'Your prices' })
  await prices.getByLabel('Model', { exact: true }).fill('my-model')
  await prices.getByLabel('Input', { exact: true }).fill('-3')
  await prices.getByLabel('Output', { exact: true }).fill('4')
  await prices.getByRole('button', { name: 'Save price' }).click()
  await expect(prices.getByLabel('Input', { exact: true })).toHaveAccessibleDescription(
    'Enter a price from 0 to 100 000.',
  )
  await expect(prices.getByLabel('Model', { exact: true })).toHaveValue('my-model')
  await prices.getByLabel('Input', { exact: true }).fill('3')
  await prices.getByRole('button', { name: 'Save price' }).click()
  await expect(prices.getByRole('listitem')).toContainText(['my-model$3.00 in · $4.00 out'])
  await expect(prices.getByLabel('Model', { exact: true })).toHaveValue('')
  await page.getByRole('heading', { level: 2 }).first().scrollIntoViewIfNeeded()
  await themes(page, 'settings-usage')
})
