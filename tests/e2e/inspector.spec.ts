import { expect, test } from '@playwright/test'
import {
  httpError,
  startScriptedServer,
  textReply,
  type ScriptedServer,
} from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer } from './support/ui'

const KEY = 'sk-e2e-secret-0123456789'
let host: WebHost | undefined
let model: ScriptedServer | undefined
test.afterEach(async () => {
  await host?.stop()
  await model?.close()
})

test('Inspect shows the calls of an answer’s turn, searchable, and copies one as curl without the key', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  model = await startScriptedServer({ models: ['m'], apiKey: KEY })
  host = await startWebHost({ model, env: { CAIRN_API_KEY: KEY } })
  // a first turn, so the inspector must pick this answer's turn, not every call of the session
  await page.goto(host.url)
  model.enqueue(textReply('Granite is heavy.'))
  await ask(page, 'Which stone is heaviest?')
  await expect(lastAnswer(page)).toContainText('Granite is heavy.')
  await idle(page)
  // one retry (rate limited), then the answer
  model.enqueue(
    httpError(429, 'slow down', { 'retry-after': '0' }),
    textReply("It's a pile of stones."),
  )
  await ask(page, "What's a cairn?\nIn one line.")
  await expect(lastAnswer(page)).toContainText("It's a pile of stones.")
  await idle(page)

  await lastAnswer(page).getByRole('button', { name: 'Inspect' }).click()
  const dialog = page.getByRole('dialog', { name: 'Turn inspector' })
  await expect(dialog).toBeVisible()
  const calls = dialog.getByRole('region', { name: /^Call \d+/ })
  await expect(calls).toHaveCount(1)
  const call = calls.first()
  await expect(call).toContainText('Model')
  await expect(call.getByRole('definition').first()).toHaveText('m')
  await expect(call).toContainText(/rate_limited|slow down|429/)
  const request = call.getByRole('group', { name: 'Request' })
  await request.getByText('body', { exact: true }).click()
  await expect(request).toContainText("What's a cairn?")
  await expect(request).toContainText('"model": "m"')
  await keepScreenshot(page, 'turn-inspector')

  // search: only the parts that contain it stay, with the match marked
  await dialog.getByRole('searchbox', { name: 'Search in this turn' }).fill('pile of')
  await expect(call.getByRole('group', { name: 'Response' }).locator('mark').first()).toHaveText(
    'pile of',
  )
  await expect(request.locator('summary')).toHaveCount(0)

  await call.getByRole('button', { name: 'Copy as curl' }).click()
  await expect(call.getByRole('button', { name: 'Copy as curl' })).toHaveText('Copied')
  const copied = await page.evaluate<string>('navigator.clipboard.readText()')
  expect(copied).toContain(`curl '${model.baseURL}/chat/completions'`)
  expect(copied).toContain('Authorization: Bearer $CAIRN_API_KEY')
  expect(copied).toContain(`What'\\''s a cairn?\\nIn one line.`)
  expect(copied).not.toContain(KEY)

  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
})
