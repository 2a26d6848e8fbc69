import { expect, test, type Page } from '@playwright/test'
import {
  httpError,
  startScriptedServer,
  textReply,
  type ScriptedServer,
} from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost | undefined
let model: ScriptedServer | undefined
test.afterEach(async () => {
  await host?.stop()
  await model?.close()
  host = undefined
  model = undefined
})

/** A fresh data directory, no provider in the environment; local servers: `localServers`. */
async function firstRun(localServers: (m: ScriptedServer) => string, apiKey?: string) {
  model = await startScriptedServer({ models: ['m'], ...(apiKey ? { apiKey } : {}) })
  host = await startWebHost({
    model,
    env: { CAIRN_BASE_URL: '', CAIRN_MODEL: '', CAIRN_LOCAL_SERVERS: localServers(model) },
  })
  return { host, model }
}

const panel = (page: Page) => page.getByRole('region', { name: 'Connect Cairn to a model' })

test('first run: onboarding finds a local server, uses it, and the first prompt works', async ({
  page,
}) => {
  const { host, model } = await firstRun((m) => m.baseURL)
  await page.goto(host.url)
  const onboarding = panel(page)
  await expect(onboarding).toBeVisible()
  const local = onboarding.getByRole('region', { name: 'Local servers on this machine' })
  await expect(local).toContainText('1 found.')
  await expect(local.getByRole('combobox', { name: 'Model' })).toHaveValue('m')
  await keepScreenshot(page, 'onboarding')
  await local.getByRole('button', { name: `Use ${new URL(model.baseURL).host}` }).click()

  const ready = page.getByRole('region', { name: 'Ready to chat' })
  await expect(ready).toContainText('Cairn will use m on')
  await ready.getByRole('button', { name: 'What can you do, and which tools do you have?' }).click()
  const box = page.getByRole('textbox', { name: 'Message' })
  await expect(box).toHaveValue('What can you do, and which tools do you have?')
  await expect(box).toBeFocused()
  model.enqueue(textReply('I can read files and answer questions.'))
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(lastAnswer(page)).toContainText('I can read files and answer questions.')
  await idle(page)
  expect(model.requests.at(-1)?.body).toMatchObject({ model: 'm' })

  // a new chat no longer shows onboarding: a provider is configured now
  await page.goto(`${host.base}/#/`)
  await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
  await expect(panel(page)).toHaveCount(0)
})

test('first run: a custom endpoint with a key, after a wrong address and a missing key', async ({
  page,
}) => {
  const { host, model } = await firstRun(() => 'http://127.0.0.1:9/v1', 'sk-test-0123456789')
  await page.goto(host.url)
  const onboarding = panel(page)
  await expect(
    onboarding.getByRole('region', { name: 'Local servers on this machine' }),
  ).toContainText('None answered')
  const endpoint = onboarding.getByRole('region', { name: 'Or connect to an endpoint' })
  await endpoint
    .getByRole('combobox', { name: 'Provider' })
    .selectOption({ label: 'Custom endpoint' })
  const url = endpoint.getByRole('textbox', { name: 'Base URL' })
  await expect(url).toHaveValue('')
  await endpoint.getByRole('button', { name: 'Test connection' }).click()
  await expect(url).toHaveAccessibleDescription(/Enter the server’s base URL/)
  await url.fill('localhost:8080')
  await endpoint.getByRole('button', { name: 'Test connection' }).click()
  await expect(url).toHaveAccessibleDescription(/must start with http/)

  await url.fill(model.baseURL)
  await endpoint.getByRole('button', { name: 'Test connection' }).click()
  await expect(endpoint.getByText(/Could not connect: The API key was rejected/)).toBeVisible()
  await expect(endpoint.getByRole('button', { name: 'Save and start chatting' })).toHaveCount(0)

  await endpoint.getByLabel('API key').fill('sk-test-0123456789')
  await endpoint.getByRole('button', { name: 'Test connection' }).click()
  await expect(endpoint.getByText('Connected: 1 model.')).toBeVisible()
  await expect(endpoint.getByRole('combobox', { name: 'Model' })).toHaveValue('m')
  await keepScreenshot(page, 'onboarding-endpoint')
  await endpoint.getByRole('button', { name: 'Save and start chatting' }).click()
  await expect(page.getByRole('region', { name: 'Ready to chat' })).toBeVisible()

  model.enqueue(textReply('Hello from the custom endpoint.'))
  await ask(page, 'Hello?')
  await expect(lastAnswer(page)).toContainText('Hello from the custom endpoint.')
  await idle(page)
  expect(model.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-test-0123456789')
})

test('an error about the provider links to the provider settings', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(httpError(401, 'invalid api key'))
  await page.goto(host.url)
  await ask(page, 'Hi')
  // a first message that got no answer keeps no chat: it waits in the box, with the reason
  const failed = page.getByRole('status').filter({ hasText: /Not sent: The API key was rejected/ })
  await expect(failed).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Hi')
  await failed.getByRole('button', { name: 'Open provider settings' }).click()
  await expect(page).toHaveURL(/#\/settings\/providers$/)
})
