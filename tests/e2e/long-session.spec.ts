import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { startWebHost, type WebHost } from './support/web-host'
import { conversation, keepScreenshot, scroller } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

/** A session of `count` messages written with the real store before the host starts. */
function seed(dataDir: string, count: number): string {
  const store = createSessionStore(dataDir)
  try {
    const session = store.createSession({ title: 'A very long talk', provider: 'p', model: 'm' })
    store.batch(() => {
      for (let i = 0; i < count; i += 2) {
        store.appendMessage(session.id, {
          role: 'user',
          content: `Question number ${i}`,
          turnId: `t${i}`,
        })
        store.appendMessage(session.id, {
          role: 'assistant',
          content: `Answer number ${i + 1}\n\n\`\`\`ts\nconst stones = ${i}\n\`\`\``,
          turnId: `t${i}`,
        })
      }
    })
    return session.id
  } finally {
    store.close()
  }
}

test('a session of 10 000 messages opens at its end and scrolls up through all of it', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-long-'))
  const id = seed(join(dir, 'data'), 10_000)
  host = await startWebHost({ dataDir: dir })
  await page.setViewportSize({ width: 1100, height: 800 })
  await page.goto(`${host.url}#/session/${id}`)
  await expect(page.getByText('Answer number 9999')).toBeVisible()
  await expect(page).toHaveTitle(/A very long talk/)
  const nodes = () => conversation(page).evaluate((el) => el.querySelectorAll('*').length)
  expect(await nodes()).toBeLessThan(3000)
  await keepScreenshot(page, 'long-session')

  // scroll to the top again and again: older pages load until the first message shows
  const list = scroller(page)
  let most = 0
  for (let i = 0; i < 400; i++) {
    await list.evaluate((el) => (el.scrollTop = 0))
    await page.waitForTimeout(30)
    most = Math.max(most, await nodes())
    if (await page.getByText('Question number 0', { exact: true }).isVisible()) break
  }
  await expect(page.getByText('Question number 0', { exact: true })).toBeVisible()
  await expect(page.getByText('Loading older messages…')).toHaveCount(0)
  expect(most).toBeLessThan(3000)
  // and the newest messages are one click away
  await page.getByRole('button', { name: 'Jump to latest' }).click()
  await expect(page.getByText('Answer number 9999')).toBeVisible()
})
