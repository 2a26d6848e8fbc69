/**
 * The Quick ask page (the desktop app's small window; browser mode serves the same page at
 * #/quick-ask): a question, its answer streamed there, and "Open in Cairn", which continues
 * the chat in the main window. Screenshots: light, dark, narrow.
 */
import { expect, test, type Page } from '@playwright/test'
import { startScriptedServer, textReply, type ScriptedServer } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost | undefined
let model: ScriptedServer | undefined
test.afterEach(async () => {
  await host?.stop()
  await model?.close()
})

async function themes(page: Page, name: string): Promise<void> {
  await keepScreenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await keepScreenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 420, height: 500 })
  await keepScreenshot(page, `${name}-narrow`)
  await page.setViewportSize(size)
}

test('Quick ask answers in its page, and "Open in Cairn" continues the chat in the main window', async ({
  page,
}) => {
  test.setTimeout(120_000)
  model = await startScriptedServer()
  host = await startWebHost({ model })
  await page.setViewportSize({ width: 640, height: 440 })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(`${host.url}#/quick-ask`)
  await expect(page.getByRole('heading', { name: 'Quick ask' })).toBeVisible()
  await expect(page).toHaveTitle('Quick ask — Cairn')
  const open = page.getByRole('button', { name: 'Open in Cairn' })
  await expect(open).toBeDisabled()
  await expect(page.getByText('Ask anything. Enter sends; Esc hides this window.')).toBeVisible()
  // no sidebar, no settings: the page is the question and its answer
  await expect(page.getByRole('navigation')).toHaveCount(0)

  model.enqueue(textReply('Basalt is a volcanic rock.'))
  await ask(page, 'What is basalt?')
  await expect(lastAnswer(page)).toContainText('Basalt is a volcanic rock.')
  await idle(page)
  await themes(page, 'quick-ask')

  await expect(open).toBeEnabled()
  await open.click()
  await expect(page).toHaveURL(/#\/session\/[A-Za-z0-9_-]+$/)
  await expect(lastAnswer(page)).toContainText('Basalt is a volcanic rock.')
  await expect(page.getByRole('heading', { name: 'Quick ask' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /sidebar/i })).toBeVisible()
})
