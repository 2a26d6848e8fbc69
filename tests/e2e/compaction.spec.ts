import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { startScriptedServer, type ScriptedServer } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, conversation, keepScreenshot } from './support/ui'

let host: WebHost
let model: ScriptedServer
test.afterEach(async () => {
  await host?.stop()
  await model?.close()
})

/** twelve exchanges, written with the real store before the host starts */
function seed(dataDir: string, baseURL: string): string {
  const store = createSessionStore(dataDir)
  try {
    const session = store.createSession({ title: 'Cairn building', provider: baseURL, model: 'm' })
    for (let i = 0; i < 12; i++) {
      store.appendMessage(session.id, { role: 'user', content: `Question number ${i}` })
      store.appendMessage(session.id, {
        role: 'assistant',
        content: `Answer number ${i}: ${'stones '.repeat(60)}`,
        provider: baseURL,
        model: 'm',
      })
    }
    return session.id
  } finally {
    store.close()
  }
}

test('/compact shows "Earlier conversation summarized" in place of the summarized messages; expanded it shows them; Undo compaction brings them back', async ({
  page,
}) => {
  model = await startScriptedServer({ models: ['m'] })
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-compact-'))
  const id = seed(join(dir, 'data'), model.baseURL)
  host = await startWebHost({ dataDir: dir, model })
  await page.setViewportSize({ width: 1100, height: 800 })
  await page.goto(`${host.url}#/session/${id}`)
  await expect(page.getByText('Question number 11', { exact: true })).toBeVisible()
  const meter = page.getByRole('meter', { name: 'Context window used' })
  await expect(meter).toBeVisible()

  model.enqueue({
    type: 'http',
    status: 200,
    body: {
      id: 's',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'The user asked questions 0 to 6 about cairns.' },
          finish_reason: 'stop',
        },
      ],
    },
  })
  await ask(page, '/compact')
  await expect(page.getByText(/^Summarized: about \d+ → \d+ tokens/)).toBeVisible()
  // the summary stands near the top, after the first question
  await page.getByText('Question number 11', { exact: true }).hover()
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -2000)
  const toggle = conversation(page).getByRole('button', { name: /Earlier conversation summarized/ })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  const request = model.requests.at(-1)!.body as { stream: boolean }
  expect(request.stream).toBe(false)

  // the covered messages are behind the summary; the first and the last exchanges are not
  await expect(page.getByText('Question number 0', { exact: true })).toBeVisible()
  await expect(page.getByText('Question number 3', { exact: true })).toHaveCount(0)
  await expect(page.getByText(/^Answer number 0:/)).toHaveCount(0)
  await keepScreenshot(page, 'compaction-collapsed')

  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByText('The user asked questions 0 to 6 about cairns.')).toBeVisible()
  await expect(page.getByText(/^Answer number 0:/)).toBeVisible()
  await expect(page.getByText('Question number 1', { exact: true })).toBeVisible()
  await keepScreenshot(page, 'compaction-expanded')

  await page.getByRole('button', { name: 'Undo compaction' }).click()
  await expect(toggle).toHaveCount(0)
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -2000)
  await expect(page.getByText(/^Answer number 0:/)).toBeVisible()
  await expect(page.getByText('Question number 1', { exact: true })).toBeVisible()
  await keepScreenshot(page, 'compaction-undone')
})
