/** What the end-to-end tests do in the page, found by role and accessible name. */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, type Locator, type Page } from '@playwright/test'

export async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill(text)
  await page.getByRole('button', { name: 'Send', exact: true }).click()
}

export const conversation = (page: Page): Locator =>
  page.getByRole('region', { name: 'Conversation' })
export const answers = (page: Page): Locator => page.getByRole('article', { name: 'Cairn' })
export const lastAnswer = (page: Page): Locator => answers(page).last()
export const approval = (page: Page): Locator =>
  page.getByRole('dialog', { name: 'Allow tool call?' })
export const stopButton = (page: Page): Locator =>
  page.getByRole('button', { name: 'Stop generating' })

/**
 * Waits until the turn on screen has ended (Send is back). Wait for something the turn
 * shows first: right after sending, before the turn has started, Send is there too.
 */
export async function idle(page: Page): Promise<void> {
  await expect(stopButton(page)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible()
}

/** Keeps a screenshot of a screen as a test artifact: test-results/screens/<name>.png */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = join(process.cwd(), 'test-results', 'screens')
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}.png`) })
}

/** The scrolling element of the conversation list. */
export const scroller = (page: Page): Locator =>
  conversation(page).locator('[data-virtuoso-scroller="true"]')
