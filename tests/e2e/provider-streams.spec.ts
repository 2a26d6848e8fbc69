/**
 * Recorded provider streams in the window: an answer cut at the model's output limit says so
 * and can be continued; a Magistral answer shows its reasoning in the Thinking block.
 */
import { expect, test } from '@playwright/test'
import { loadRecording, replay } from '../llm/recordings'
import { textReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { answers, ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

test('an answer cut at the output limit says so, and Continue asks the model to go on', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(
    replay(loadRecording('llamacpp-cut-at-length.sse')),
    textReply(' 2. Privacy. 3. Cost.'),
  )
  await page.goto(host.url)
  await ask(page, 'Why run a model locally?')
  const cut = lastAnswer(page)
  await expect(cut).toContainText('Speed')
  await idle(page)
  await expect(cut).toContainText("Cut at the model's output limit")
  await expect(page.getByText("The answer was cut at the model's output limit.")).toBeVisible()
  const cont = cut.getByRole('button', { name: 'Continue' })
  await expect(cont).toBeVisible()
  await keepScreenshot(page, 'answer-cut-at-output-limit')

  await cont.click()
  await expect(page.getByRole('article', { name: 'You' }).last()).toContainText(
    'Continue from where you stopped.',
  )
  await expect(lastAnswer(page)).toContainText('Privacy. 3. Cost.')
  await idle(page)
  await expect(answers(page)).toHaveCount(2)
  // the cut answer went back to the model with the request to go on
  const body = host.model.requests[1]?.body as { messages: { role: string; content: string }[] }
  expect(body.messages.slice(-2)).toEqual([
    { role: 'assistant', content: 'Here are three reasons:\n\n1. Speed' },
    { role: 'user', content: 'Continue from where you stopped.' },
  ])
  // only the newest exchange offers Continue; the cut one still says it was cut
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0)
  await expect(answers(page).first()).toContainText("Cut at the model's output limit")
})

test('a Magistral answer shows its reasoning in the Thinking block', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(replay(loadRecording('mistral-reasoning.chunks.txt')))
  await page.goto(host.url)
  await ask(page, 'What is 2+2?')
  const answer = lastAnswer(page)
  await expect(answer).toContainText('2 + 2 = 4')
  await idle(page)
  const thinking = answer.locator('details.thinking')
  await expect(thinking.locator('summary')).toContainText(/Thought for/)
  await thinking.locator('summary').click()
  await expect(thinking).toContainText('The user is asking for 2+2. This is basic arithmetic.')
  await keepScreenshot(page, 'magistral-reasoning')
})
