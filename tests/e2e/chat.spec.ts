import { expect, test, type Page } from '@playwright/test'
import { textReply, toolCallsReply, slowText, lastToolContent } from '../support/openai-server'
import { startDropProxy } from './support/drop-proxy'
import { startWebHost, type WebHost } from './support/web-host'

async function ask(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

const assistantText = (page: Page) => page.locator('.msg.assistant .text').last()

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

test('a prompt streams into the page', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(slowText(40, 60))
  await page.goto(host.url)
  await ask(page, 'Tell me about stones')
  await expect(page.locator('.msg.user').first()).toHaveText('Tell me about stones')
  // part of the answer is on screen before the answer is complete
  await expect(assistantText(page)).toContainText('w3 ')
  expect(await assistantText(page).textContent()).not.toContain('w39')
  await expect(page.getByRole('button', { name: 'Stop generating' })).toBeVisible()
  await expect(assistantText(page)).toContainText('w39')
  await expect(page.getByRole('button', { name: 'Stop generating' })).toHaveCount(0)
  // the address now names the session, so a reload comes back to it
  expect(page.url()).toMatch(/#\/session\/[0-9a-f-]+$/)
})

test('a tool call is approved in the dialog and its result shown', async ({ page }) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(
    toolCallsReply([
      { name: 'everything__echo', arguments: '{"message":"stones mark the trail"}' },
    ]),
    (req) => textReply(`The echo said: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Echo something')
  const dialog = page.getByRole('dialog', { name: 'Allow tool call?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.locator('.approval-tool')).toHaveText('echo')
  await expect(dialog.locator('.approval-server')).toContainText('everything')
  await expect(dialog.getByLabel('Arguments')).toHaveText(
    JSON.stringify({ message: 'stones mark the trail' }, null, 2),
  )
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByLabel('Tool result').first()).toHaveText('Echo: stones mark the trail')
  await expect(page.getByText('The echo said: Echo: stones mark the trail')).toBeVisible()
})

test('Stop ends a long answer and the next prompt works', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(slowText(400, 30))
  await page.goto(host.url)
  await ask(page, 'A very long story')
  await expect(assistantText(page)).toContainText('w5 ')
  await page.getByRole('button', { name: 'Stop generating' }).click()
  await expect(page.getByRole('button', { name: 'Stop generating' })).toHaveCount(0)
  await expect(page.getByText('Stopped', { exact: true }).first()).toBeVisible()
  const frozen = await page.locator('.msg.assistant').last().textContent()
  await page.waitForTimeout(600)
  expect(await page.locator('.msg.assistant').last().textContent()).toBe(frozen)
  expect(frozen).not.toContain('w399')
  host.model.enqueue(textReply('A shorter one, then.'))
  await ask(page, 'Shorter, please')
  await expect(page.getByText('A shorter one, then.')).toBeVisible()
})

test('a reload in the middle of a turn re-attaches to it', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(slowText(60, 60))
  await page.goto(host.url)
  await ask(page, 'Count slowly')
  await expect(assistantText(page)).toContainText('w5 ')
  await page.reload()
  // what was shown before the reload is there again, and the answer goes on
  await expect(assistantText(page)).toContainText('w0 w1 w2 w3 w4 w5')
  await expect(page.getByRole('button', { name: 'Stop generating' })).toBeVisible()
  await expect(assistantText(page)).toContainText('w59')
  await expect(page.locator('.msg.assistant')).toHaveCount(1)
  expect((await assistantText(page).textContent())?.match(/w5 /g)).toHaveLength(1)
})

test('a pending approval comes back after a reload', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(
    toolCallsReply([{ name: 'list_directory', arguments: '{}' }]),
    textReply('Listed the workspace.'),
  )
  await page.goto(host.url)
  await ask(page, 'What is in my workspace?')
  await expect(page.getByRole('dialog', { name: 'Allow tool call?' })).toBeVisible()
  await page.reload()
  const dialog = page.getByRole('dialog', { name: 'Allow tool call?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.locator('.approval-tool')).toHaveText('list_directory')
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(page.getByText('Listed the workspace.')).toBeVisible()
})

test('Deny with a reason reaches the model', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(
    toolCallsReply([{ name: 'write_file', arguments: '{"path":"notes.txt","content":"x"}' }]),
    (req) => textReply(`Understood: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Write a note')
  const dialog = page.getByRole('dialog', { name: 'Allow tool call?' })
  await dialog.getByLabel('Reason if you deny').fill('not in this folder')
  await dialog.getByRole('button', { name: 'Deny' }).click()
  await expect(page.getByText(/Understood: .*not in this folder/)).toBeVisible()
  expect(lastToolContent(host.model.requests.at(-1)!)).toContain('not in this folder')
  await expect(page.locator('.tool-denied')).toHaveCount(1)
})

test('the address without the token is refused', async ({ page }) => {
  host = await startWebHost()
  const res = await page.goto(host.base)
  expect(res?.status()).toBe(401)
  await expect(page.getByText(/needs the token/)).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0)
})

test('a dropped connection shows a banner, reconnects and goes on', async ({ page }) => {
  host = await startWebHost()
  const proxy = await startDropProxy(host.base)
  try {
    await page.goto(proxy.url(new URL(host.url).pathname + new URL(host.url).search))
    host.model.enqueue(textReply('First answer.'))
    await ask(page, 'one')
    await expect(page.getByText('First answer.')).toBeVisible()
    proxy.dropAll()
    await expect(page.getByRole('alert').filter({ hasText: 'Connection lost' })).toBeVisible()
    await expect(page.getByRole('alert').filter({ hasText: 'Connection lost' })).toHaveCount(0, {
      timeout: 15_000,
    })
    host.model.enqueue(textReply('Second answer, after the reconnection.'))
    await ask(page, 'two')
    await expect(page.getByText('Second answer, after the reconnection.')).toBeVisible()
    await expect(page.getByText('First answer.')).toBeVisible()
  } finally {
    await proxy.close()
  }
})
