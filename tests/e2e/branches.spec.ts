/**
 * The conversation tree in the window (issue 21): edit the second of five messages, switch
 * between the versions with ‹ ›, reload (the branch stays open), regenerate an answer in
 * the middle; the model is always sent exactly the branch on screen.
 */
import { expect, test, type Page } from '@playwright/test'
import { textReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { answers, ask, conversation, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

type Sent = { role: string; content: string | null }
/** what the model was sent in its last request (without the system prompt) */
const lastSent = (): (string | null)[] =>
  (host.model.requests.at(-1)!.body.messages as Sent[])
    .filter((m) => m.role !== 'system')
    .map((m) => m.content)

const mine = (page: Page) => page.getByRole('article', { name: 'You' })

async function say(page: Page, text: string, answer: string): Promise<void> {
  host.model.enqueue(textReply(answer))
  await ask(page, text)
  await expect(lastAnswer(page)).toContainText(answer)
  await idle(page)
}

async function keepThemes(page: Page, name: string): Promise<void> {
  await keepScreenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await keepScreenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 420, height: size.height })
  await keepScreenshot(page, `${name}-narrow`)
  await page.setViewportSize(size)
}

test('edit the second of five messages, switch with ‹ ›, reload, regenerate in the middle', async ({
  page,
}) => {
  host = await startWebHost()
  await page.goto(host.url)
  await page.emulateMedia({ colorScheme: 'light' })
  for (let i = 1; i <= 5; i++) await say(page, `Question ${i}`, `Answer ${i}.`)
  await expect(mine(page)).toHaveCount(5)

  // Edit on the second message: a new branch from there, answered
  host.model.enqueue(textReply('Answer 2, edited.'))
  await mine(page).nth(1).getByRole('button', { name: 'Edit and resend' }).click()
  const editor = page.getByRole('textbox', { name: 'Edit message' })
  await editor.fill('Question 2, edited')
  await editor.press('Enter')
  await expect(lastAnswer(page)).toContainText('Answer 2, edited.')
  await idle(page)
  expect(lastSent()).toEqual(['Question 1', 'Answer 1.', 'Question 2, edited'])
  await expect(mine(page)).toHaveCount(2)
  const versions = mine(page).nth(1).getByRole('group', { name: 'Versions' })
  await expect(versions).toContainText('2/2')
  await keepThemes(page, 'branch-switcher')

  // ‹: the first version, and the conversation that went on from it
  await versions.getByRole('button', { name: 'Previous version' }).click()
  await expect(mine(page)).toHaveCount(5)
  await expect(mine(page).nth(1)).toContainText('Question 2')
  await expect(lastAnswer(page)).toContainText('Answer 5.')
  await expect(mine(page).nth(1).getByRole('group', { name: 'Versions' })).toContainText('1/2')
  // ›: back to the edit
  await mine(page).nth(1).getByRole('button', { name: 'Next version' }).click()
  await expect(mine(page)).toHaveCount(2)
  await expect(lastAnswer(page)).toContainText('Answer 2, edited.')
  // and back to the first once more: the reload keeps the branch that is open
  await mine(page).nth(1).getByRole('button', { name: 'Previous version' }).click()
  await expect(mine(page)).toHaveCount(5)
  await page.reload()
  await expect(mine(page)).toHaveCount(5)
  await expect(lastAnswer(page)).toContainText('Answer 5.')

  // Regenerate the answer in the middle (the third): another answer, a new branch after it
  host.model.enqueue(textReply('Answer 3, again.'))
  await answers(page).nth(2).getByRole('button', { name: 'Regenerate' }).click()
  await expect(lastAnswer(page)).toContainText('Answer 3, again.')
  await idle(page)
  expect(lastSent()).toEqual(['Question 1', 'Answer 1.', 'Question 2', 'Answer 2.', 'Question 3'])
  await expect(mine(page)).toHaveCount(3)
  const answerVersions = lastAnswer(page).getByRole('group', { name: 'Versions' })
  await expect(answerVersions).toContainText('2/2')

  // the conversation goes on from the branch on screen
  await say(page, 'Question 4, on the new branch', 'Answer 4, new.')
  expect(lastSent()).toEqual([
    'Question 1',
    'Answer 1.',
    'Question 2',
    'Answer 2.',
    'Question 3',
    'Answer 3, again.',
    'Question 4, on the new branch',
  ])
  // the earlier answer is one click away, with everything that followed it
  await answers(page)
    .nth(2)
    .getByRole('group', { name: 'Versions' })
    .getByRole('button', { name: 'Previous version' })
    .click()
  await expect(mine(page)).toHaveCount(5)
  await expect(conversation(page)).toContainText('Answer 5.')

  // Branch into new chat at the second answer: a new chat of the path up to it, linked back
  await answers(page).nth(1).getByRole('button', { name: 'Branch into new chat' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toContainText('branch at 4')
  await expect(mine(page)).toHaveCount(2)
  await expect(lastAnswer(page)).toContainText('Answer 2.')
  await say(page, 'Question 3, in the new chat', 'Answer 3, elsewhere.')
  expect(lastSent()).toEqual([
    'Question 1',
    'Answer 1.',
    'Question 2',
    'Answer 2.',
    'Question 3, in the new chat',
  ])
  await page.getByRole('button', { name: /Branched from “Question 1” at message 4/ }).click()
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText('branch at')
  await expect(mine(page)).toHaveCount(5)
})
