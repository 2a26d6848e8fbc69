import { expect, test, type Page } from '@playwright/test'
import {
  lastToolContent,
  startScriptedServer,
  textReply,
  toolCallsReply,
  type ScriptedServer,
} from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { approval, ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost | undefined
let model: ScriptedServer | undefined
test.afterEach(async () => {
  await host?.stop()
  await model?.close()
  host = undefined
  model = undefined
})

/** Opens a settings section by its address, the way a link or the sidebar does. */
async function openSettings(page: Page, section: string): Promise<void> {
  await page.evaluate((s) => {
    // runs in the page
    const page = globalThis as unknown as { location: { hash: string } }
    page.location.hash = `#/settings/${s}`
  }, section)
  await expect(page.getByRole('main', { name: 'Settings' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2 })).toBeVisible()
}

async function backToChat(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Back to chat' }).click()
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible()
}

const listDirectory = () =>
  toolCallsReply([{ name: 'list_directory', arguments: JSON.stringify({ path: '.' }) }])

test('a provider added from a preset is tested, becomes the default with the chosen model, and the chat uses it', async ({
  page,
}) => {
  model = await startScriptedServer({ models: ['m', 'm2'] })
  // no provider in the environment: the settings' provider is the one a chat uses
  host = await startWebHost({ model, env: { CAIRN_BASE_URL: '', CAIRN_MODEL: '' } })
  await page.goto(host.url)
  await openSettings(page, 'providers')
  await expect(page.getByText('No provider yet.')).toBeVisible()
  await page.getByRole('button', { name: 'Add provider' }).click()
  await keepScreenshot(page, 'settings-provider-presets')
  await page.getByRole('button', { name: /^Ollama/ }).click()
  const form = page.getByRole('form', { name: 'Add Ollama' })
  await expect(form.getByLabel('Name')).toHaveValue('Ollama')
  await expect(form.getByLabel('Name')).toBeFocused()
  await form.getByLabel('Base URL').fill('not a url')
  await form.getByRole('button', { name: 'Save provider' }).click()
  await expect(form.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByText('This is not a URL.', { exact: false })).toBeVisible()
  await form.getByLabel('Base URL').fill(model.baseURL)
  await form.getByRole('button', { name: 'Test connection' }).click()
  const found = form.getByRole('list', { name: 'Models found' })
  await expect(found.getByRole('listitem')).toHaveText(['m', 'm2'])
  await keepScreenshot(page, 'settings-provider-form')
  await form.getByRole('button', { name: 'Save provider' }).click()

  const item = page.getByRole('listitem', { name: 'Ollama' })
  await expect(item).toContainText('Default')
  await expect(item).toContainText(model.baseURL)
  await expect(page.getByRole('status').filter({ hasText: 'Saved Ollama.' })).toBeVisible()
  const defaultModel = page.getByRole('combobox', { name: 'Default model (Ollama)' })
  await expect(page.getByText('2 models available.', { exact: false })).toBeVisible()
  await defaultModel.fill('m2')
  const modelForm = page.getByRole('form', { name: 'Default model' })
  await modelForm.getByRole('button', { name: 'Save model' }).click()
  await expect(modelForm.getByRole('status')).toHaveText('Saved')

  await backToChat(page)
  host.model.enqueue(textReply('Hello from the settings provider.'))
  await ask(page, 'Who answers?')
  await expect(lastAnswer(page)).toContainText('Hello from the settings provider.')
  const chats = host.model.requests.filter((r) => r.path === '/v1/chat/completions')
  expect(chats.at(-1)!.body.model).toBe('m2')
})

test('a connection test says exactly what failed', async ({ page }) => {
  host = await startWebHost()
  await page.goto(host.url)
  await openSettings(page, 'providers')
  await page.getByRole('button', { name: 'Add provider' }).click()
  await page.getByRole('button', { name: /^Custom endpoint/ }).click()
  const form = page.getByRole('form', { name: 'Add Custom endpoint' })
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1')
  await form.getByRole('button', { name: 'Test connection' }).click()
  await expect(form.getByRole('alert')).toContainText('Connection failed: ')
  await expect(form.getByRole('alert')).not.toHaveText('Connection failed: ')
  // nothing was saved
  await form.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('No provider yet.')).toBeVisible()
})

test('deny all stops every tool call without asking; allow all runs them without asking', async ({
  page,
}) => {
  host = await startWebHost()
  await page.goto(host.url)
  await openSettings(page, 'permissions')
  await page.getByRole('radio', { name: /Deny all/ }).check()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await backToChat(page)
  host.model.enqueue(listDirectory(), (req) => textReply(`Tool said: ${lastToolContent(req)}`))
  await ask(page, 'List the folder')
  await expect(lastAnswer(page)).toContainText('Tool said:')
  const cards = page.getByRole('region', { name: /Tool call list_directory/ })
  await expect(cards.last().getByRole('status')).toHaveText('Denied by the permission policy')
  await expect(approval(page)).toHaveCount(0)
  await idle(page)

  await openSettings(page, 'permissions')
  await expect(page.getByRole('radio', { name: /Deny all/ })).toBeChecked()
  await page.getByRole('radio', { name: /Allow all/ }).check()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await backToChat(page)
  host.model.enqueue(listDirectory(), textReply('Listed.'))
  await ask(page, 'List it again')
  await expect(lastAnswer(page)).toContainText('Listed.')
  await expect(cards).toHaveCount(2)
  await expect(cards.last().getByRole('status')).toHaveText('Done')
  await expect(cards.last()).toContainText('Auto-approved by the permission policy')
  await expect(approval(page)).toHaveCount(0)
})

test('a revoked always-allow rule asks again', async ({ page }) => {
  host = await startWebHost({ mcp: true })
  const echo = (message: string) =>
    toolCallsReply([{ name: 'everything__echo', arguments: JSON.stringify({ message }) }])
  host.model.enqueue(echo('one'), textReply('First done.'))
  await page.goto(host.url)
  await ask(page, 'Echo one')
  await approval(page).getByRole('button', { name: 'Always allow' }).click()
  await expect(lastAnswer(page)).toContainText('First done.')
  await idle(page)

  await openSettings(page, 'permissions')
  const row = page.getByRole('row', { name: /everything echo/ })
  await expect(row).toBeVisible()
  await keepScreenshot(page, 'settings-permissions-rule')
  await page.getByRole('button', { name: 'Revoke everything echo' }).click()
  await expect(row).toHaveCount(0)
  await expect(page.getByText('No tool is always allowed.')).toBeVisible()

  await backToChat(page)
  host.model.enqueue(echo('two'), textReply('Second done.'))
  await ask(page, 'Echo two')
  await expect(approval(page)).toBeVisible()
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('Second done.')
})

test('every section, in the light and the dark theme; the theme choice follows the header switch', async ({
  page,
}) => {
  host = await startWebHost()
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(host.url)
  // something in each section worth seeing
  await openSettings(page, 'providers')
  await page.getByRole('button', { name: 'Add provider' }).click()
  // (a local endpoint with a key: the test reaches no other machine)
  await page.getByRole('button', { name: /^Custom endpoint/ }).click()
  const form = page.getByRole('form', { name: 'Add Custom endpoint' })
  await form.getByLabel('Name').fill('Scripted')
  await form.getByLabel('Base URL').fill(host.model.baseURL)
  await form.getByLabel('API key').fill('sk-test-abcdefghijklmnop1234')
  await form.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByRole('listitem', { name: 'Scripted' })).toContainText(
    'Key saved (sk-…1234)',
  )
  await expect(page.getByText('1 model available.', { exact: false })).toBeVisible()

  await openSettings(page, 'tools')
  await page.getByRole('checkbox', { name: /run_command/ }).uncheck()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await page.getByLabel('Default workspace folder').fill('relative/path')
  await page.getByRole('button', { name: 'Save workspace' }).click()
  await expect(page.getByText('Enter an absolute path', { exact: false })).toBeVisible()

  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') {
      await openSettings(page, 'general')
      await page.getByRole('radio', { name: 'Dark' }).check()
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    }
    for (const section of ['providers', 'permissions', 'tools', 'general']) {
      await openSettings(page, section)
      await keepScreenshot(page, `settings-${section}-${theme}`)
    }
  }

  // the header's switch and the choice are one setting
  await backToChat(page)
  await page.getByRole('button', { name: 'Switch to light theme' }).click()
  await openSettings(page, 'general')
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked()
  await page.getByRole('radio', { name: 'Same as the system' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
})
