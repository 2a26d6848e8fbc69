import { expect, test, type Page } from '@playwright/test'
import { lastToolContent, textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { approval, ask, keepScreenshot, lastAnswer, stopButton } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const question = (page: Page) => page.getByRole('dialog', { name: 'everything asks' })

test("a server's question survives a reload, and the answer reaches the server", async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(
    toolCallsReply([{ name: 'everything__trigger-elicitation-request', arguments: '{}' }]),
    (req) => textReply(`The tool said: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Ask me for my details')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  const form = question(page)
  await expect(form).toBeVisible()
  await expect(form.getByText('Please provide inputs for the following fields:')).toBeVisible()
  // defaults are filled in
  await expect(form.getByLabel(/^Integer/)).toHaveValue('42')
  await expect(form.getByLabel(/^String with default/)).toHaveValue(
    'It was a dark and stormy night.',
  )
  await expect(form).toBeFocused()
  const card = page.getByRole('region', {
    name: 'Tool call trigger-elicitation-request on everything',
  })
  // the window behind the form is hidden from assistive technology while it is open
  await expect(page.locator('section.tool .tool-status')).toHaveText('Waiting for your answer')
  await keepScreenshot(page, 'elicitation-form')

  await page.reload()
  await expect(form).toBeVisible()
  await expect(form.getByLabel(/^Integer/)).toHaveValue('42')
  // a required field left empty is named beside it, and nothing is sent
  await form.getByRole('button', { name: 'Submit' }).click()
  await expect(form.getByText('Required.')).toBeVisible()
  await expect(form.getByLabel(/^String \(required\)/)).toBeFocused()
  await keepScreenshot(page, 'elicitation-error')
  await form.getByLabel(/^String \(required\)/).fill('Ada Lovelace')
  await form.getByLabel(/^Integer/).fill('7')
  await form.getByRole('button', { name: 'Submit' }).click()
  await expect(form).toHaveCount(0)
  await expect(card.getByRole('status')).toHaveText('Done')
  await expect(card.getByLabel('Tool result')).toContainText('- Name: Ada Lovelace')
  await expect(card.getByLabel('Tool result')).toContainText('- Favorite Integer: 7')
  await expect(lastAnswer(page)).toContainText('User provided the requested information')
})

test('Esc cancels the question; the server is told the user cancelled', async ({ page }) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(
    toolCallsReply([{ name: 'everything__trigger-elicitation-request', arguments: '{}' }]),
    (req) => textReply(`The tool said: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Ask me')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(question(page)).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(question(page)).toHaveCount(0)
  const card = page.getByRole('region', {
    name: 'Tool call trigger-elicitation-request on everything',
  })
  await expect(card.getByLabel('Tool result')).toContainText('User cancelled')
  await expect(stopButton(page)).toHaveCount(0)
})

test('a long-running tool shows its progress on its card', async ({ page }) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(
    toolCallsReply([
      {
        name: 'everything__trigger-long-running-operation',
        arguments: '{"duration":8,"steps":8}',
      },
    ]),
    (req) => textReply(`Finished: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Run the long operation')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  const card = page.getByRole('region', {
    name: 'Tool call trigger-long-running-operation on everything',
  })
  const bar = card.getByRole('progressbar', {
    name: 'Progress of trigger-long-running-operation',
  })
  await expect(bar).toBeVisible()
  await expect(bar).toHaveAttribute('max', '8')
  await expect(card.getByText(/^[2-7] of 8$/)).toBeVisible()
  await keepScreenshot(page, 'tool-progress')
  await expect(card.getByRole('status')).toHaveText('Done')
  await expect(bar).toHaveCount(0)
  await expect(lastAnswer(page)).toContainText('Long running operation completed')
})

test("Stop answer in a server's question stops the turn; the call is answered and the next turn works", async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(
    toolCallsReply([{ name: 'everything__trigger-elicitation-request', arguments: '{}' }]),
  )
  await page.goto(host.url)
  await ask(page, 'Ask me')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  const form = question(page)
  await expect(form).toBeFocused()
  await form.getByRole('button', { name: 'Stop answer' }).click()
  await expect(form).toHaveCount(0)
  await expect(page.getByRole('alert').filter({ hasText: 'Stopped.' })).toBeVisible()
  await expect(stopButton(page)).toHaveCount(0)
  host.model.enqueue(textReply('Ready again.'))
  await ask(page, 'Still there?')
  await expect(lastAnswer(page)).toContainText('Ready again.')
  // the stopped call got its result before the next request: the history stays valid
  const sent = host.model.requests.at(-1)!.body.messages as { role: string }[]
  expect(sent.filter((m) => m.role === 'tool')).toHaveLength(1)
})
