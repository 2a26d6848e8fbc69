/**
 * The window at 600 × 500, 900 and 1280 px, light and dark: every control of the chat, the
 * sidebar and each settings section is inside the viewport and not covered; below 900 px
 * the sidebar opens over the chat and closes with Esc; Ctrl+B hides and shows it.
 * Screenshots: test-results/screens/responsive-<width>-<theme>-<screen>.png
 */
import { expect, test, type Page } from '@playwright/test'
import { textReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer } from './support/ui'
import { expectAllReachable } from './support/reachable'

let host: WebHost | undefined
test.afterEach(async () => {
  await host?.stop()
  host = undefined
})

const SIZES = [
  { width: 600, height: 500 },
  { width: 900, height: 700 },
  { width: 1280, height: 800 },
]
const SECTIONS = ['providers', 'models', 'assistants', 'permissions', 'mcp', 'tools', 'general']

async function openSettings(page: Page, section: string): Promise<void> {
  await page.evaluate((s) => {
    const page = globalThis as unknown as { location: { hash: string } }
    page.location.hash = `#/settings/${s}`
  }, section)
  await expect(page.getByRole('main', { name: 'Settings' })).toBeVisible()
}

for (const theme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    test(`at ${size.width} × ${size.height}, ${theme}: every control of the chat and the settings can be reached`, async ({
      page,
    }) => {
      test.setTimeout(240_000)
      await page.setViewportSize(size)
      await page.addInitScript(`localStorage.setItem('cairn.theme', '${theme}')`)
      host = await startWebHost()
      host.model.enqueue(textReply('Cairns mark a path across bare ground.'))
      await page.goto(host.url)
      await ask(page, 'What is a cairn?')
      await expect(lastAnswer(page)).toContainText('Cairns mark a path')
      await idle(page)
      const name = `responsive-${size.width}-${theme}`
      const narrow = size.width < 900
      const sidebar = page.getByRole('region', { name: 'Sessions' })

      await expectAllReachable(page, `chat at ${size.width}`)
      await keepScreenshot(page, `${name}-chat`)

      if (narrow) {
        await expect(sidebar).toBeHidden()
        await page.getByRole('button', { name: 'Show sidebar' }).click()
        await expect(sidebar).toBeVisible()
        await expectAllReachable(page, `sidebar over the chat at ${size.width}`)
        await keepScreenshot(page, `${name}-sidebar`)
        await page.keyboard.press('Escape')
        await expect(sidebar).toBeHidden()
      } else {
        await expect(sidebar).toBeVisible()
        await page.keyboard.press('Control+b')
        await expect(sidebar).toBeHidden()
        await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible()
        await page.keyboard.press('Control+b')
        await expect(sidebar).toBeVisible()
      }

      for (const section of SECTIONS) {
        await openSettings(page, section)
        await expect(page.getByRole('heading', { level: 2 })).toBeVisible()
        await expectAllReachable(page, `settings › ${section} at ${size.width}`)
        await keepScreenshot(page, `${name}-settings-${section}`)
      }
    })
  }
}
