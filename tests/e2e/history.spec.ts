import { expect, test } from '@playwright/test'
import { httpError, lastToolContent, textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { answers, approval, ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

type Sent = { role: string; content: string | null }
/** what the model was sent of the conversation (without the system prompt) */
const sentMessages = (h: WebHost): Sent[] =>
  (h.model.requests.at(-1)!.body.messages as Sent[]).filter((m) => m.role !== 'system')

test('two calls with the same id in two turns show their own results, also after a reload', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  const echo = (message: string) =>
    toolCallsReply([
      { id: 'call_0', name: 'everything__echo', arguments: JSON.stringify({ message }) },
    ])
  host.model.enqueue(echo('first'), (req) => textReply(`Got ${lastToolContent(req)}`))
  await page.goto(host.url)
  await ask(page, 'Echo first')
  await approval(page).getByRole('button', { name: 'Deny' }).click()
  await expect(lastAnswer(page)).toContainText('Got')
  await idle(page)
  host.model.enqueue(echo('second'), (req) => textReply(`Got ${lastToolContent(req)}`))
  await ask(page, 'Echo second')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('Got Echo: second')
  await idle(page)

  const check = async (): Promise<void> => {
    const cards = page.getByRole('region', { name: 'Tool call echo on everything' })
    await expect(cards).toHaveCount(2)
    await expect(cards.nth(0).getByRole('status')).toHaveText('Denied')
    await expect(cards.nth(1).getByRole('status')).toHaveText('Done')
    await expect(cards.nth(1).getByLabel('Tool result')).toHaveText('Echo: second')
  }
  await check()
  await page.reload()
  await check()
  // the reloaded card remembers who decided: the user allowed it, nobody auto-approved it
  await expect(page.getByText('Auto-approved')).toHaveCount(0)
  await keepScreenshot(page, 'reloaded-history')
})

test('Regenerate keeps the earlier answer as version 1/2, and the model does not see it', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(textReply('The first answer.'))
  await page.goto(host.url)
  await ask(page, 'Name a stone')
  await expect(lastAnswer(page)).toContainText('The first answer.')
  await idle(page)
  host.model.enqueue(textReply('The second answer.'))
  await lastAnswer(page).getByRole('button', { name: 'Regenerate' }).click()
  await expect(lastAnswer(page)).toContainText('The second answer.')
  await idle(page)
  await expect(answers(page)).toHaveCount(1)
  await expect(page.getByRole('article', { name: 'You' })).toHaveCount(1)
  const sent = sentMessages(host)
  expect(sent.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Name a stone'])
  expect(sent.some((m) => m.content === 'The first answer.')).toBe(false)

  const versions = page.getByRole('group', { name: 'Versions' })
  await expect(versions).toContainText('2/2')
  await versions.getByRole('button', { name: 'Previous version' }).click()
  await expect(versions).toContainText('1/2')
  await expect(lastAnswer(page)).toContainText('The first answer.')
  await versions.getByRole('button', { name: 'Next version' }).click()
  await expect(lastAnswer(page)).toContainText('The second answer.')
  // after a reload the newest version is shown, and the earlier one is still there
  await page.reload()
  await expect(lastAnswer(page)).toContainText('The second answer.')
  await expect(page.getByRole('group', { name: 'Versions' })).toContainText('2/2')
  await keepScreenshot(page, 'versions')
})

test('Edit and resend replaces the last message; the conversation goes on from the edit', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(textReply('About granite.'))
  await page.goto(host.url)
  await ask(page, 'Tell me about granit')
  await expect(lastAnswer(page)).toContainText('About granite.')
  await idle(page)
  host.model.enqueue(textReply('About basalt.'))
  await page.getByRole('button', { name: 'Edit and resend' }).click()
  const editor = page.getByRole('textbox', { name: 'Edit message' })
  await expect(editor).toBeFocused()
  await editor.fill('Tell me about basalt')
  await editor.press('Enter')
  await expect(lastAnswer(page)).toContainText('About basalt.')
  await idle(page)
  await expect(page.getByRole('article', { name: 'You' })).toHaveText(/Tell me about basalt/)
  expect(
    sentMessages(host)
      .filter((m) => m.role === 'user')
      .map((m) => m.content),
  ).toEqual(['Tell me about basalt'])
  host.model.enqueue(textReply('Both are volcanic? Only basalt.'))
  await ask(page, 'And is it volcanic?')
  await expect(lastAnswer(page)).toContainText('Only basalt.')
  expect(
    sentMessages(host)
      .filter((m) => m.role === 'user')
      .map((m) => m.content),
  ).toEqual(['Tell me about basalt', 'And is it volcanic?'])
})

test('a failed turn says what went wrong once, and Retry resends it without retyping', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(textReply('Hello.'), httpError(401, 'Incorrect API key provided'))
  await page.goto(host.url)
  await ask(page, 'Hi')
  await expect(lastAnswer(page)).toContainText('Hello.')
  await idle(page)
  await ask(page, 'Are you there?')
  const alert = page.getByRole('alert').filter({ hasText: /API key/ })
  await expect(alert).toHaveCount(1)
  await keepScreenshot(page, 'turn-error')
  host.model.enqueue(textReply('Yes, here now.'))
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(lastAnswer(page)).toContainText('Yes, here now.')
  await expect(alert).toHaveCount(0)
  await expect(page.getByRole('article', { name: 'You' })).toHaveCount(2)
  // the failed copy of the question is not sent beside the new one
  expect(sentMessages(host).map((m) => `${m.role}: ${m.content}`)).toEqual([
    'user: Hi',
    'assistant: Hello.',
    'user: Are you there?',
  ])
})

test('a first message the server does not answer keeps no chat: the text is back in the box', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(httpError(401, 'Incorrect API key provided'))
  await page.goto(host.url)
  await ask(page, 'Are you there?')
  const box = page.getByRole('textbox', { name: 'Message' })
  await expect(box).toHaveValue('Are you there?')
  await expect(page.getByText(/Not sent: .*API key/)).toBeVisible()
  await expect(page.getByRole('article', { name: 'You' })).toHaveCount(0)
  expect(host.model.requests).toHaveLength(1)
  const chats = page
    .getByRole('region', { name: 'Sessions' })
    .getByRole('list', { name: 'Chats' })
    .getByRole('listitem')
  await expect(chats).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('article', { name: 'You' })).toHaveCount(0)
  await expect(chats).toHaveCount(0)
})
