import { expect, test } from '@playwright/test'
import { lastToolContent, textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { approval, ask, idle, keepScreenshot, lastAnswer, stopButton } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const echo = (message: string, id?: string) =>
  toolCallsReply([
    { ...(id ? { id } : {}), name: 'everything__echo', arguments: JSON.stringify({ message }) },
  ])

test('Allow once: the dialog shows the call in full, focus starts on the dialog, the result card follows', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(echo('stones mark the trail'), (req) =>
    textReply(`The echo said: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Echo something')
  const dialog = approval(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.locator('.approval-tool')).toHaveText('echo')
  await expect(dialog.locator('.approval-server')).toHaveText('everything')
  await expect(dialog.getByText('Echoes back the input')).toBeVisible()
  await expect(dialog.getByText('untrusted server')).toBeVisible()
  await expect(dialog.getByLabel('Arguments')).toHaveText(
    JSON.stringify({ message: 'stones mark the trail' }, null, 2),
  )
  // a stray Enter approves nothing: focus is on the dialog, not on an allow button
  await expect(dialog).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  // the window behind it is inert: typing goes nowhere, the composer is out of reach
  await page.keyboard.type('yes')
  await expect(page.locator('.app')).toHaveAttribute('inert', '')
  await expect(page.locator('textarea[aria-label="Message"]')).toHaveValue('')
  await expect(dialog).toBeVisible()
  await keepScreenshot(page, 'approval-dialog')
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(dialog).toHaveCount(0)
  const card = page.getByRole('region', { name: 'Tool call echo on everything' })
  await expect(card.getByRole('status')).toHaveText('Done')
  await expect(card.getByLabel('Tool result')).toHaveText('Echo: stones mark the trail')
  await expect(lastAnswer(page)).toContainText('The echo said: Echo: stones mark the trail')
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused()
  await keepScreenshot(page, 'tool-card')
})

test('Always allow: the next call of that tool runs without asking, and its card says why', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(echo('one'), textReply('First done.'))
  await page.goto(host.url)
  await ask(page, 'Echo one')
  await approval(page).getByRole('button', { name: 'Always allow' }).click()
  await expect(lastAnswer(page)).toContainText('First done.')
  await idle(page)
  host.model.enqueue(echo('two'), textReply('Second done.'))
  await ask(page, 'Echo two')
  await expect(lastAnswer(page)).toContainText('Second done.')
  await expect(approval(page)).toHaveCount(0)
  const cards = page.getByRole('region', { name: 'Tool call echo on everything' })
  await expect(cards).toHaveCount(2)
  await expect(cards.last()).toContainText('Auto-approved by an “Always allow” rule')
  await expect(cards.last().getByLabel('Tool result')).toHaveText('Echo: two')
})

test('Deny with a reason reaches the model; Esc denies', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(
    toolCallsReply([{ name: 'write_file', arguments: '{"path":"notes.txt","content":"x"}' }]),
    (req) => textReply(`Understood: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Write a note')
  const dialog = approval(page)
  await expect(dialog.locator('.approval-server')).toHaveText('Cairn (built-in)')
  await dialog.getByLabel('Reason if you deny').fill('not in this folder')
  await dialog.getByRole('button', { name: 'Deny' }).click()
  await expect(lastAnswer(page)).toContainText(/Understood: .*not in this folder/)
  expect(lastToolContent(host.model.requests.at(-1)!)).toContain('not in this folder')
  await expect(
    page.getByRole('region', { name: /Tool call write_file/ }).getByRole('status'),
  ).toHaveText('Denied')
  await idle(page)

  host.model.enqueue(
    toolCallsReply([{ name: 'write_file', arguments: '{"path":"b.txt","content":"y"}' }]),
    textReply('Fine, I will not.'),
  )
  await ask(page, 'Write another')
  await expect(approval(page)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(approval(page)).toHaveCount(0)
  await expect(lastAnswer(page)).toContainText('Fine, I will not.')
  await expect(
    page
      .getByRole('region', { name: /Tool call write_file/ })
      .last()
      .getByRole('status'),
  ).toHaveText('Denied')
})

test('a pending approval comes back after a reload', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(
    toolCallsReply([{ name: 'list_directory', arguments: '{}' }]),
    textReply('Listed the workspace.'),
  )
  await page.goto(host.url)
  await ask(page, 'What is in my workspace?')
  await expect(approval(page)).toBeVisible()
  await page.reload()
  await expect(approval(page)).toBeVisible()
  await expect(approval(page).locator('.approval-tool')).toHaveText('list_directory')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(page.getByText('Listed the workspace.')).toBeVisible()
})

test('Stop during a tool call answers the call, and the next turn works', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(toolCallsReply([{ name: 'run_command', arguments: '{"command":"sleep 30"}' }]))
  await page.goto(host.url)
  await ask(page, 'Wait a long time')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  const card = page.getByRole('region', { name: /Tool call run_command/ })
  await expect(card.getByRole('status')).toContainText('Running')
  await stopButton(page).click()
  await idle(page)
  await expect(card.getByRole('status')).toHaveText('Cancelled')
  await expect(page.getByRole('alert').filter({ hasText: 'Stopped.' })).toBeVisible()
  host.model.enqueue(textReply('Ready again.'))
  await ask(page, 'Still there?')
  await expect(lastAnswer(page)).toContainText('Ready again.')
  // the stopped call got its result before the next request: the history stays valid
  const sent = host.model.requests.at(-1)!.body.messages as {
    role: string
    tool_call_id?: string
  }[]
  expect(sent.filter((m) => m.role === 'tool')).toHaveLength(1)
})

test('Stop answer in the approval dialog stops the turn without running the call', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(echo('never run'))
  await page.goto(host.url)
  await ask(page, 'Echo something')
  const dialog = approval(page)
  await expect(dialog).toBeFocused()
  await dialog.getByRole('button', { name: 'Stop answer' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('alert').filter({ hasText: 'Stopped.' })).toBeVisible()
  const card = page.getByRole('region', { name: 'Tool call echo on everything' })
  await expect(card.getByLabel('Tool result')).not.toContainText('Echo: never run')
  host.model.enqueue(textReply('Ready again.'))
  await ask(page, 'Still there?')
  await expect(lastAnswer(page)).toContainText('Ready again.')
  const sent = host.model.requests.at(-1)!.body.messages as { role: string }[]
  expect(sent.filter((m) => m.role === 'tool')).toHaveLength(1)
})
