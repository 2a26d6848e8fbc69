import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { startWebHost, type WebHost } from './support/web-host'
import { keepScreenshot } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const TOTAL = 1000
const title = (n: number): string => `Chat number ${String(n).padStart(4, '0')}`

/** `TOTAL` chats of one exchange each, written with the real store; the last is the newest. */
function seed(dataDir: string): void {
  const store = createSessionStore(dataDir)
  try {
    store.batch(() => {
      for (let n = 1; n <= TOTAL; n++) {
        const s = store.createSession({ title: title(n), provider: 'p', model: 'm' })
        store.appendMessage(s.id, { role: 'user', content: `Question ${n}`, turnId: `t${n}` })
        store.appendMessage(s.id, { role: 'assistant', content: `Answer ${n}`, turnId: `t${n}` })
      }
    })
  } finally {
    store.close()
  }
}

const sidebar = (page: Page): Locator => page.getByRole('region', { name: 'Sessions' })
const rows = (page: Page): Locator =>
  sidebar(page).getByRole('list', { name: 'Chats' }).getByRole('listitem')

test('a thousand chats: the sidebar loads page after page as it scrolls, and stays small', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-many-'))
  seed(join(dir, 'data'))
  host = await startWebHost({ dataDir: dir })
  const pages: number[] = []
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : f.payload.toString()
      if (!text.includes('"sessions.list"')) return
      const offset = /"offset":(\d+)/.exec(text)
      pages.push(offset ? Number(offset[1]) : 0)
    }),
  )
  await page.setViewportSize({ width: 1100, height: 800 })
  await page.goto(`${host.url}#/new`)

  // newest first; only the first page has been asked for
  await expect(rows(page).first()).toContainText(title(TOTAL))
  await expect(sidebar(page).getByRole('button', { name: title(1), exact: true })).toHaveCount(0)
  const scroller = sidebar(page).locator('.session-scroller')
  const seen = new Set<string>()
  let most = 0
  for (let i = 0; i < 600 && !seen.has(title(1)); i++) {
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight))
    await page.waitForTimeout(25)
    const names = await rows(page).allInnerTexts()
    most = Math.max(most, names.length)
    for (const n of names) seen.add(n.replace('⋯', '').trim())
  }
  // the oldest chat came into view: every page was loaded on the way
  await expect(sidebar(page).getByRole('button', { name: title(1), exact: true })).toBeVisible()
  await keepScreenshot(page, 'sidebar-1000-chats-end')
  expect(new Set(pages).size).toBeGreaterThanOrEqual(Math.ceil(TOTAL / 60))
  // rows come and go: the page holds a screenful or two of them, never the thousand
  expect(seen.size).toBeGreaterThan(200)
  expect(most).toBeLessThan(120)
  expect(await rows(page).count()).toBeLessThan(120)

  // and it opens: the last one in the list is a real chat
  await sidebar(page)
    .getByRole('button', { name: title(1), exact: true })
    .click()
  await expect(page.getByText('Answer 1', { exact: true })).toBeVisible()

  // back at the top, the newest is there again, from the pages already loaded
  const asked = pages.length
  await scroller.evaluate((el) => (el.scrollTop = 0))
  await expect(sidebar(page).getByRole('button', { name: title(TOTAL), exact: true })).toBeVisible()
  expect(pages.length).toBe(asked)
})
