import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { textReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, lastAnswer } from './support/ui'

let host: WebHost | undefined
test.afterEach(async () => {
  await host?.stop()
})

const banner = (page: Page) => page.getByRole('alert')

test('an open tab reconnects after browser mode restarts, and says so when its address was replaced', async ({
  page,
}) => {
  host = await startWebHost()
  await page.goto(host.url)
  host.model.enqueue(textReply('Before the restart.'))
  await ask(page, 'One')
  await expect(lastAnswer(page)).toContainText('Before the restart.')
  await idle(page)

  // same data directory, same port: the token and the tab's cookie still work
  host = await host.restart()
  host.model.enqueue(textReply('After the restart.'))
  await expect(banner(page).filter({ hasText: 'reconnecting' })).toHaveCount(0)
  await ask(page, 'Two')
  await expect(lastAnswer(page)).toContainText('After the restart.')
  await idle(page)

  // the token is replaced (as --new-token does): the tab says what to do instead of retrying
  const { model, dataDir } = host
  const port = Number(new URL(host.url).port)
  await host.stop(true)
  writeFileSync(join(dataDir, 'data', 'web-token'), `${'x'.repeat(43)}\n`, { mode: 0o600 })
  host = await startWebHost({ model, dataDir, port })
  await expect(
    banner(page).filter({
      hasText: 'This address is no longer valid: run npm run web and open the address it prints.',
    }),
  ).toBeVisible()
  // the new address works
  await page.goto(host.url)
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible()
  await expect(banner(page)).toHaveCount(0)
})

test('the page browser mode opens the browser at lets Chromium in once, without the token', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-opener-'))
  const opened = join(dir, 'opened.txt')
  const script = join(dir, 'browser.mjs')
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(opened)}, process.argv[2])\n`,
  )
  try {
    host = await startWebHost({ browser: `${process.execPath} ${script}` })
    await expect.poll(() => existsSync(opened)).toBe(true)
    const address = readFileSync(opened, 'utf8')
    expect(address).toMatch(/^file:\/\/.*web-open\.html$/)
    // Chromium goes from the page on disk (another site) to Cairn, and keeps the cookie
    await page.goto(address)
    await expect(page).toHaveURL(`${host.base}/`)
    host.model.enqueue(textReply('Opened from the page.'))
    await ask(page, 'Hello')
    await expect(lastAnswer(page)).toContainText('Opened from the page.')
    await idle(page)
    // used once: the page is gone, and its code lets no one else in
    expect(existsSync(fileURLToPath(address))).toBe(false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
