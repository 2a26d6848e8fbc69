/**
 * Resources and prompts of the real server-everything in the window: `@` attaches a
 * resource that reaches the model, and `/everything:args-prompt` asks its argument and
 * sends the prompt's message as the user's, marked with where it came from.
 */
import { expect, test } from '@playwright/test'
import { textReply, toolCallsReply } from '../support/openai-server'
import { approval, ask, idle, keepScreenshot, lastAnswer } from './support/ui'
import { startWebHost, type WebHost } from './support/web-host'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

type Body = { messages: { role: string; content: unknown }[] }
const userContents = (body: unknown): string[] =>
  (body as Body).messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))

test('@ opens the resource picker; the chosen resource is sent to the model and stays on the message', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(textReply('It explains the server.'))
  await page.goto(host.url)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Summarize ')
  await box.pressSequentially('@instructions')
  const listbox = page.getByRole('listbox', { name: 'Resources to attach' })
  const option = listbox.getByRole('option', { name: /instructions\.md/ })
  await expect(option).toBeVisible({ timeout: 30_000 })
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await expect(box).toHaveAttribute('aria-activedescendant', 'resource-option-0')
  await keepScreenshot(page, 'resource-picker')

  await page.keyboard.press('Enter')
  await expect(listbox).toHaveCount(0)
  const chips = page.getByRole('list', { name: 'Attached resources' })
  await expect(chips.getByText('instructions.md')).toBeVisible()
  await expect(box).toHaveValue('Summarize ')
  await box.pressSequentially('please')
  await keepScreenshot(page, 'resource-chip')
  await page.getByRole('button', { name: 'Send', exact: true }).click()

  await expect(lastAnswer(page)).toContainText('It explains the server.')
  await idle(page)
  const [sent] = userContents(host.model.requests[0]!.body)
  expect(sent).toMatch(
    /^Summarize please\n\n\[Attached resource demo:\/\/resource\/static\/document\/instructions\.md \(text\/markdown\)\]\n./,
  )
  const mine = page.getByRole('article', { name: 'You' })
  await expect(mine.getByRole('list', { name: 'Attached resources' })).toContainText(
    'instructions.md',
  )
  // the composer's chips went with the message
  await expect(page.getByRole('form', { name: 'Compose' }).getByRole('list')).toHaveCount(0)
  await keepScreenshot(page, 'resource-sent')

  // the chat reopens the same
  await page.reload()
  await expect(
    page.getByRole('article', { name: 'You' }).getByRole('list', { name: 'Attached resources' }),
  ).toContainText('instructions.md')
})

test('a resource template asks its value in the picker, and the filled resource is sent', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(textReply('Got resource 5.'))
  await page.goto(host.url)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Read ')
  await box.pressSequentially('@dynamic/text')
  const option = page
    .getByRole('listbox', { name: 'Resources to attach' })
    .getByRole('option', { name: /template/ })
    .first()
  await expect(option).toBeVisible({ timeout: 30_000 })
  await option.click()
  const form = page.getByRole('group', { name: /^Attach / })
  await expect(form).toBeVisible()
  await expect(form.getByRole('button', { name: 'Attach' })).toBeDisabled()
  await form.getByRole('textbox', { name: 'resourceId' }).fill('5')
  await keepScreenshot(page, 'resource-template')
  await page.keyboard.press('Enter')
  await expect(form).toHaveCount(0)
  const chips = page.getByRole('form', { name: 'Compose' }).getByRole('list', {
    name: 'Attached resources',
  })
  await expect(chips).toContainText('resourceId=5')
  await expect(box).toBeFocused()
  await box.pressSequentially('it')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(lastAnswer(page)).toContainText('Got resource 5.')
  await idle(page)
  const [sent] = userContents(host.model.requests[0]!.body)
  expect(sent).toMatch(
    /^Read it\n\n\[Attached resource demo:\/\/resource\/dynamic\/text\/5 \(text\/plain\)\]\nResource 5: /,
  )
})

test("/everything:args-prompt completes with Tab, asks its argument, and sends the prompt's message", async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(textReply('Sunny in Oslo.'))
  await page.goto(host.url)
  const box = page.getByRole('textbox', { name: 'Message' })
  // the server is up once its resources or prompts are listed; wait through the picker
  await box.fill('@')
  await expect(
    page.getByRole('listbox', { name: 'Resources to attach' }).getByRole('option').first(),
  ).toBeVisible({ timeout: 30_000 })
  await box.fill('/everything:args')
  await expect(async () => {
    await box.fill('/everything:args')
    await box.press('Tab')
    await expect(box).toHaveValue('/everything:args-prompt', { timeout: 1000 })
  }).toPass({ timeout: 15_000 })
  await box.press('Enter')
  const form = page.getByRole('group', { name: 'Prompt /everything:args-prompt' })
  await expect(form).toBeVisible()
  await expect(form.getByRole('button', { name: 'Send prompt' })).toBeDisabled()
  await form.getByRole('textbox', { name: /^city/ }).fill('Oslo')
  await keepScreenshot(page, 'prompt-form')
  await form.getByRole('button', { name: 'Send prompt' }).click()

  await expect(lastAnswer(page)).toContainText('Sunny in Oslo.')
  await idle(page)
  expect(userContents(host.model.requests[0]!.body)).toEqual(["What's weather in Oslo?"])
  const mine = page.getByRole('article', { name: 'You' })
  await expect(mine).toContainText("What's weather in Oslo?")
  await expect(mine.getByText('From the server prompt')).toContainText('/everything:args-prompt')
  await keepScreenshot(page, 'prompt-sent')
})

test('past the tool limit the model searches with find_tools, and Inspect lists what each call offered', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  await page.goto(host.url)
  await page.goto(`${host.base}/#/settings/general`)
  const limits = page.getByRole('form', { name: 'Limits' })
  await limits.getByRole('spinbutton', { name: /Tools in one request/ }).fill('5')
  await limits.getByRole('button', { name: 'Save limits' }).click()
  await expect(limits.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await page.goto(`${host.base}/#/new`)

  host.model.enqueue(
    toolCallsReply([{ name: 'find_tools', arguments: '{"query":"echo"}' }]),
    toolCallsReply([{ name: 'everything__echo', arguments: '{"message":"hi"}' }]),
    textReply('Echoed.'),
  )
  await ask(page, 'Echo hi with whatever tool does it')
  // find_tools is never asked about; the tool it found is
  await expect(approval(page)).toBeVisible()
  await expect(approval(page).locator('.approval-tool')).toHaveText('echo')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('Echoed.')
  await idle(page)

  const names = (i: number): string[] =>
    (
      (host.model.requests[i]!.body as { tools?: { function: { name: string } }[] }).tools ?? []
    ).map((t) => t.function.name)
  expect(names(0)[0]).toBe('find_tools')
  expect(names(0).length).toBeLessThanOrEqual(5)
  expect(names(0)).not.toContain('everything__echo')
  expect(names(1)).toContain('everything__echo')
  expect(names(1).length).toBeLessThanOrEqual(5)

  await lastAnswer(page).getByRole('button', { name: 'Inspect' }).click()
  const dialog = page.getByRole('dialog', { name: 'Turn inspector' })
  const calls = dialog.getByRole('region', { name: /^Call \d+/ })
  await expect(calls).toHaveCount(3)
  const offered = (i: number) => calls.nth(i).locator('dt:text-is("Tools offered") + dd')
  await expect(offered(0)).toHaveText(
    /^1, with find_tools standing in for the \d+ connected: find_tools$/,
  )
  await expect(offered(1)).toContainText('everything__echo')
  await keepScreenshot(page, 'inspector-tools-offered')
})
