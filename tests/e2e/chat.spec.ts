import { expect, test } from '@playwright/test'
import {
  reasoningReply,
  slowText,
  textReply,
  type Reply,
  type SseItem,
} from '../support/openai-server'
import { startDropProxy } from './support/drop-proxy'
import { startWebHost, type WebHost } from './support/web-host'
import {
  answers,
  ask,
  conversation,
  idle,
  keepScreenshot,
  lastAnswer,
  scroller,
  stopButton,
} from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const MARKDOWN = `Here is a **table**:

| Stone | Weight |
| --- | --- |
| Granite | 2.7 |
| ~~Pumice~~ | 0.6 |

- [x] stack stones
- [ ] mark the trail

\`\`\`ts
export function cairn(stones: number): string {
  return 'stone '.repeat(stones).trim()
}
\`\`\`

<img src=x onerror="document.title='pwned'"> and ![a cairn](https://example.com/c.png)
`

/** The text in pieces, `delayMs` apart, so that the page sees it stream. */
function streamed(text: string, size: number, delayMs: number) {
  const items: SseItem[] = []
  for (let i = 0; i < text.length; i += size) {
    items.push({
      choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }],
    })
    items.push({ delayMs })
  }
  items.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
  return { type: 'sse' as const, items }
}

test('a formatted answer streams in: a table, a task list and a highlighted code block', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(streamed(MARKDOWN, 12, 40))
  await page.goto(host.url)
  await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
  await keepScreenshot(page, 'empty-state')
  await ask(page, 'Tell me about stones')
  await expect(page.getByRole('article', { name: 'You' })).toContainText('Tell me about stones')
  // part of the answer is on screen before the answer is complete
  await expect(lastAnswer(page)).toContainText('Here is a')
  await expect(stopButton(page)).toBeVisible()
  await idle(page)
  const answer = lastAnswer(page)
  await expect(answer.getByRole('table')).toBeVisible()
  await expect(answer.getByRole('cell', { name: 'Granite' })).toBeVisible()
  await expect(answer.locator('del')).toHaveText('Pumice')
  await expect(answer.getByRole('checkbox')).toHaveCount(2)
  await expect(answer.getByRole('button', { name: 'Copy code' })).toBeVisible()
  // highlighted once complete: the keywords carry token colours
  const keyword = answer
    .locator('pre span')
    .filter({ hasText: /^export\b/ })
    .last()
  await expect(keyword).toBeVisible()
  await expect(keyword).toHaveClass(/\bmd-tok md-c\d+/)
  // not the text colour of the page (the light theme's --fg)
  await expect(keyword).not.toHaveCSS('color', 'rgb(27, 34, 32)')
  // untrusted HTML stays text, and no remote image is loaded
  await expect(answer).toContainText('<img src=x onerror=')
  expect(await page.title()).not.toBe('pwned')
  await expect(answer.locator('img')).toHaveCount(0)
  await expect(answer).toContainText('https://example.com/c.png')
  // the window's title is the session's
  await expect(page).toHaveTitle(/Tell me about stones/)
  expect(page.url()).toMatch(/#\/session\/[0-9a-f-]+$/)
  await keepScreenshot(page, 'answer-markdown')
})

test('reasoning streams in a Thinking block that folds away when the answer starts', async ({
  page,
}) => {
  host = await startWebHost()
  const reply = <Extract<Reply, { type: 'sse' }>>(
    reasoningReply(
      'First I weigh the stones, then I stack them. '.repeat(6),
      'Stack the heaviest first.',
      {
        style: 'reasoning_content',
        chunkSize: 6,
      },
    )
  )
  // slow the reasoning down so the page sees it live
  reply.items = reply.items.flatMap((it) => [it, { delayMs: 40 }])
  host.model.enqueue(reply)
  await page.goto(host.url)
  await ask(page, 'How do I build a cairn?')
  const thinking = lastAnswer(page).locator('details.thinking')
  await expect(thinking).toHaveAttribute('open', '')
  await expect(thinking.locator('summary')).toContainText('Thinking')
  await expect(lastAnswer(page)).toContainText('Stack the heaviest first.')
  await expect(thinking).not.toHaveAttribute('open', '')
  await expect(thinking.locator('summary')).toContainText(/Thought for \d/)
  // it opens again on request
  await thinking.locator('summary').click()
  await expect(thinking).toContainText('I weigh the stones')
})

test('Stop ends a long answer with the button, Esc ends the next, and a new turn works', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(slowText(400, 30))
  await page.goto(host.url)
  await ask(page, 'A very long story')
  await expect(lastAnswer(page)).toContainText('w5 ')
  await stopButton(page).click()
  await idle(page)
  await expect(lastAnswer(page).getByText('Stopped', { exact: true })).toBeVisible()
  const frozen = await lastAnswer(page).textContent()
  await page.waitForTimeout(600)
  expect(await lastAnswer(page).textContent()).toBe(frozen)
  expect(frozen).not.toContain('w399')
  // the composer has the focus back after the turn
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused()

  host.model.enqueue(slowText(400, 30))
  await ask(page, 'Another long one')
  // the second answer is streaming (the first one also says "w3")
  await expect(answers(page)).toHaveCount(2)
  await expect(lastAnswer(page)).toContainText('w3 ')
  await page.keyboard.press('Escape')
  await idle(page)
  await expect(answers(page)).toHaveCount(2)

  host.model.enqueue(textReply('A shorter one, then.'))
  await ask(page, 'Shorter, please')
  await expect(lastAnswer(page)).toContainText('A shorter one, then.')
})

test('scrolled up while an answer streams, the view stays put; Jump to latest goes back down', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(
    textReply(Array.from({ length: 60 }, (_, i) => `Line ${i} of an earlier answer.`).join('\n\n')),
  )
  await page.setViewportSize({ width: 1000, height: 700 })
  await page.goto(host.url)
  await ask(page, 'Something long first')
  await expect(lastAnswer(page)).toContainText('Line 59 of an earlier answer.')
  await idle(page)
  host.model.enqueue(slowText(600, 20))
  await ask(page, 'Now stream for a while')
  await expect(lastAnswer(page)).toContainText('w10 ')
  // the list follows the stream while the user is at the bottom
  const list = scroller(page)
  const gap = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
  await expect.poll(gap).toBeLessThan(80)
  // ... and keeps following it by itself: the end stays in view, no "Jump to latest"
  for (let i = 0; i < 10; i++) {
    await page.waitForTimeout(150)
    expect(await gap()).toBeLessThan(200)
  }
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)
  await list.hover()
  await page.mouse.wheel(0, -900)
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
  // the wheel's own scrolling may still be under way: take the position once it has stopped
  let top = -1
  for (let last = await list.evaluate((el) => el.scrollTop); last !== top; ) {
    top = last
    await page.waitForTimeout(150)
    last = await list.evaluate((el) => el.scrollTop)
  }
  await expect(lastAnswer(page)).toContainText('w120 ')
  expect(Math.abs((await list.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(2)
  await page.getByRole('button', { name: 'Jump to latest' }).click()
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)
  await expect.poll(gap).toBeLessThan(80)
  await stopButton(page).click()
  await idle(page)
})

test('a reload in the middle of a turn re-attaches to it', async ({ page }) => {
  host = await startWebHost()
  host.model.enqueue(slowText(60, 60))
  await page.goto(host.url)
  await ask(page, 'Count slowly')
  await expect(lastAnswer(page)).toContainText('w5 ')
  await page.reload()
  // what was shown before the reload is there again, and the answer goes on
  await expect(lastAnswer(page)).toContainText('w0 w1 w2 w3 w4 w5')
  await expect(stopButton(page)).toBeVisible()
  await expect(lastAnswer(page)).toContainText('w59')
  await idle(page)
  await expect(answers(page)).toHaveCount(1)
  expect((await lastAnswer(page).textContent())?.match(/w5 /g)).toHaveLength(1)
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
    await expect(conversation(page)).toBeVisible()
  } finally {
    await proxy.close()
  }
})
