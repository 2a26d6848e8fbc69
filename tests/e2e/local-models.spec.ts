import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startModelHub, type ScriptedHub } from '../support/model-hub'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer, stopButton } from './support/ui'
import { TINY_MODEL, builtinToolNames } from '../local-models/support'

/**
 * Local models in browser mode, as a new user meets them: a fresh data directory, no
 * provider and no local server; the first run offers a small model from the (scripted) hub,
 * the chat runs on it in Cairn's own runtime, Stop cuts an answer; Settings › Models adds a
 * file from disk, searches the hub, downloads and removes.
 */

let host: WebHost | undefined
let hub: ScriptedHub | undefined
test.afterEach(async () => {
  await host?.stop()
  await hub?.close()
  host = undefined
  hub = undefined
})

const tiny = readFileSync(TINY_MODEL)

async function freshHost(): Promise<WebHost> {
  hub = await startModelHub([
    // the first run's recommended model, here the tiny test model under its name
    { repo: 'Qwen/Qwen3-1.7B-GGUF', files: { 'Qwen3-1.7B-Q8_0.gguf': tiny } },
    { repo: 'ggml-org/tiny-GGUF', files: { 'tiny-Q4_K_M.gguf': tiny } },
  ])
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-local-'))
  mkdirSync(join(dataDir, 'data'), { recursive: true, mode: 0o700 })
  writeFileSync(
    join(dataDir, 'data', 'settings.json'),
    JSON.stringify({
      builtinTools: { disabled: builtinToolNames() },
      localModels: { idleMinutes: 10, threads: 1, maxContext: 512, hubURL: hub.url },
    }),
    { mode: 0o600 },
  )
  host = await startWebHost({ dataDir, env: { CAIRN_BASE_URL: '', CAIRN_MODEL: '' } })
  return host
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme })
  // the page follows the system's theme (the settings screen does not mark it on <html>)
  await expect
    .poll(() => page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches"))
    .toBe(theme === 'dark')
  await page.waitForTimeout(150)
}

async function keepThreeWays(page: Page, name: string): Promise<void> {
  await keepScreenshot(page, `${name}-light`)
  await setTheme(page, 'dark')
  await keepScreenshot(page, `${name}-dark`)
  await setTheme(page, 'light')
  const size = page.viewportSize()
  await page.setViewportSize({ width: 760, height: 900 })
  await keepScreenshot(page, `${name}-narrow`)
  if (size) await page.setViewportSize(size)
}

test('first run: download the small model, chat offline, stop an answer', async ({ page }) => {
  const h = await freshHost()
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(h.url)
  const offer = page.getByRole('region', { name: 'Download a small model and chat offline' })
  await expect(offer).toContainText('Qwen3 1.7B (1 MB) runs on this machine')
  await keepThreeWays(page, 'local-first-run')
  await offer.getByRole('button', { name: 'Download Qwen3 1.7B' }).click()
  const ready = page.getByRole('region', { name: 'Ready to chat' })
  await expect(ready).toContainText('Cairn will use Qwen3-1.7B-Q8_0', { timeout: 20_000 })

  await ask(page, 'Once upon a time')
  await expect(lastAnswer(page)).not.toBeEmpty({ timeout: 30_000 })
  await idle(page)

  await ask(page, 'Tell me another story')
  await expect(stopButton(page)).toBeVisible()
  await expect(lastAnswer(page)).not.toBeEmpty({ timeout: 30_000 })
  await stopButton(page).click()
  await idle(page)
  await keepScreenshot(page, 'local-chat')
})

test('Settings › Models: a file from disk, a search and a download, remove', async ({ page }) => {
  const h = await freshHost()
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(`${h.url}#/settings/models`)
  const section = page.getByRole('region', { name: 'Models', exact: true })
  await expect(section).toContainText('No local model yet')

  const add = page.getByRole('form', { name: 'Add a model file' })
  const file = add.getByRole('textbox', { name: 'Model file' })
  await file.fill('notes.txt')
  await add.getByRole('button', { name: 'Add model' }).click()
  await expect(file).toHaveAccessibleDescription(/absolute/i)
  await file.fill(join(process.cwd(), 'package.json'))
  await add.getByRole('button', { name: 'Add model' }).click()
  await expect(file).toHaveAccessibleDescription(/is not a GGUF model/)
  await expect(file).toHaveValue(join(process.cwd(), 'package.json'))
  await file.fill(TINY_MODEL)
  await add.getByRole('textbox', { name: 'Name (optional)' }).fill('tiny')
  await add.getByRole('button', { name: 'Add model' }).click()
  const list = page.getByRole('list', { name: 'Local models' })
  await expect(list).toContainText('tiny')
  await expect(list).toContainText('llama')

  const search = page.getByRole('search', { name: 'Search Hugging Face' })
  await search.getByRole('textbox', { name: 'Model name' }).fill('tiny')
  await search.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('button', { name: 'ggml-org/tiny-GGUF' }).click()
  const files = page.getByRole('table', { name: 'GGUF files of ggml-org/tiny-GGUF' })
  await expect(files).toContainText('Q4_K_M')
  await expect(files).toContainText('Fits')
  await keepThreeWays(page, 'local-models-settings')
  await files.getByRole('button', { name: 'Download tiny-Q4_K_M.gguf' }).click()
  await expect(list).toContainText('tiny-Q4_K_M', { timeout: 20_000 })
  await expect(page.getByRole('region', { name: 'Downloads' })).toContainText('Added')

  await page.getByRole('button', { name: 'Remove tiny', exact: true }).click()
  await expect(list.getByText('tiny', { exact: true })).toHaveCount(0)
  await expect(list).toContainText('tiny-Q4_K_M')
})
