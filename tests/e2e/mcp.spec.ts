import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { keepScreenshot } from './support/ui'
import { EVERYTHING, startWebHost, type WebHost } from './support/web-host'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

async function openMcp(page: Page): Promise<void> {
  await page.goto(host.url)
  await page.goto(`${host.base}/#/settings/mcp`)
  await expect(page.getByRole('heading', { name: 'MCP servers', level: 2 })).toBeVisible()
}

const server = (page: Page, name: string): Locator =>
  page.getByRole('listitem', { name: new RegExp(`^${name}, `) })

async function pasteAndAdd(page: Page, json: unknown): Promise<void> {
  await page.getByRole('button', { name: 'Paste JSON' }).click()
  await page.getByRole('textbox', { name: 'Claude Desktop JSON' }).fill(JSON.stringify(json))
  await page.getByRole('button', { name: 'Review' }).click()
  await expect(page.getByRole('region', { name: 'Servers to add' })).toBeVisible()
  await page.getByRole('button', { name: /^Add (server|\d+ servers)$/ }).click()
  await expect(
    page
      .getByRole('main', { name: 'Settings' })
      .getByRole('region', { name: 'Servers', exact: true })
      .getByRole('status'),
  ).toContainText('switched off')
}

test('a pasted server starts after its command line is confirmed, lists its tools, restarts and is switched off', async ({
  page,
}) => {
  host = await startWebHost()
  await openMcp(page)
  await expect(page.getByText('No MCP servers yet.')).toBeVisible()
  await pasteAndAdd(page, {
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
  })
  const row = server(page, 'everything')
  await expect(row).toHaveAccessibleName('everything, disabled')

  // the switch turns on only once the command line is confirmed
  await row.getByRole('switch', { name: 'Enabled everything' }).click()
  const dialog = page.getByRole('dialog', { name: 'Start MCP server?' })
  await expect(dialog).toBeVisible()
  // the complete command line: the program and every argument
  await expect(dialog.getByText(process.execPath, { exact: true })).toBeVisible()
  await expect(dialog.getByText(EVERYTHING, { exact: true })).toBeVisible()
  await expect(dialog.getByText('stdio', { exact: true })).toBeVisible()
  await keepScreenshot(page, 'mcp-consent')
  await dialog.getByRole('button', { name: 'Start server' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(row).toHaveAccessibleName('everything, ready', { timeout: 30_000 })

  await row.getByRole('button', { name: 'Details of everything' }).click()
  const tools = row.getByRole('list', { name: 'Tools of everything' })
  await expect(tools.getByText('echo', { exact: true })).toBeVisible()
  await expect(row.getByText(/Folders searched for the command \(PATH\)/)).toBeVisible()
  await keepScreenshot(page, 'mcp-ready')

  const pidText = async (): Promise<string> =>
    (await row.getByText(/process \d+/).textContent()) ?? ''
  const before = await pidText()
  await row.getByRole('button', { name: 'Restart everything' }).click()
  await expect(row).toHaveAccessibleName('everything, ready')
  await expect.poll(pidText).not.toBe(before)

  await row.getByRole('switch', { name: 'Enabled everything' }).click()
  await expect(row).toHaveAccessibleName('everything, disabled')
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('the doctor says why a server does not start: not found (and where it looked), or its exit code and stderr', async ({
  page,
}) => {
  host = await startWebHost()
  await openMcp(page)
  await pasteAndAdd(page, {
    mcpServers: {
      ghost: { command: 'cairn-no-such-server' },
      crashy: { command: process.execPath, args: ['-e', 'console.error("boom"); process.exit(3)'] },
    },
  })
  for (const name of ['ghost', 'crashy']) {
    await server(page, name)
      .getByRole('switch', { name: `Enabled ${name}` })
      .click()
    await page
      .getByRole('dialog', { name: 'Start MCP server?' })
      .getByRole('button', { name: 'Start server' })
      .click()
  }
  const ghost = server(page, 'ghost')
  await expect(ghost).toHaveAccessibleName('ghost, error')
  await expect(ghost.getByLabel('What went wrong with ghost')).toContainText(
    '"cairn-no-such-server" was not found',
  )
  await ghost.getByRole('button', { name: 'Details of ghost' }).click()
  await ghost.getByText(/Folders searched for the command \(PATH\)/).click()
  await expect(ghost.getByRole('list').getByText('/usr/bin', { exact: true })).toBeVisible()
  await ghost.scrollIntoViewIfNeeded()
  await keepScreenshot(page, 'mcp-doctor-not-found')

  const crashy = server(page, 'crashy')
  const problem = crashy.getByLabel('What went wrong with crashy')
  await expect(problem).toContainText('exited with code 3')
  await expect(problem).toContainText('boom')
  await crashy.getByRole('button', { name: 'Details of crashy' }).click()
  await expect(crashy.getByLabel('Error output (stderr)')).toContainText('boom')
  await keepScreenshot(page, 'mcp-doctor')
})

test('a bad paste says which server and field is wrong, and adds nothing', async ({ page }) => {
  host = await startWebHost()
  await openMcp(page)
  await page.getByRole('button', { name: 'Paste JSON' }).click()
  const box = page.getByRole('textbox', { name: 'Claude Desktop JSON' })
  await box.fill('{"mcpServers": {"ok": {"command": "a"}, "bad": {"command": "b", "args": "x"}}}')
  await page.getByRole('button', { name: 'Review' }).click()
  await expect(box).toHaveAccessibleDescription(/mcpServers\["bad"\]\.args must be a list/)
  await expect(page.getByText('No MCP servers yet.')).toBeVisible()
})

test('with --mcp-config the servers are read-only, and the page says why', async ({ page }) => {
  host = await startWebHost({ mcp: true })
  await openMcp(page)
  await expect(page.getByRole('note')).toContainText('--mcp-config')
  await expect(server(page, 'everything')).toHaveAccessibleName('everything, ready', {
    timeout: 30_000,
  })
  await expect(page.getByRole('switch')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Remove everything' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Add a server' })).toHaveCount(0)
})

test("Claude Desktop's servers are read from its usual place, reviewed, then added switched off", async ({
  page,
}) => {
  host = await startWebHost()
  // browser mode runs with HOME set to the test's folder
  const dir = join(host.dataDir, '.config', 'Claude')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: { fetcher: { command: 'uvx', args: ['mcp-server-fetch'], env: { KEY: 'v' } } },
    }),
  )
  await openMcp(page)
  await page.getByRole('button', { name: 'Import from Claude Desktop' }).click()
  await page.getByRole('button', { name: "Read Claude Desktop's servers" }).click()
  const review = page.getByRole('region', { name: 'Servers to add' })
  await expect(review).toContainText('claude_desktop_config.json')
  await expect(review.getByText('mcp-server-fetch', { exact: true })).toBeVisible()
  await expect(review.getByText('KEY', { exact: true })).toBeVisible()
  await review.getByRole('button', { name: 'Add server' }).click()
  await expect(server(page, 'fetcher')).toHaveAccessibleName('fetcher, disabled')
})

test("logins to remote servers use Cairn's client document by default, or register with each server", async ({
  page,
}) => {
  host = await startWebHost()
  await openMcp(page)
  const form = page.getByRole('form', { name: 'Logins to remote servers' })
  await form.scrollIntoViewIfNeeded()
  await expect(form.getByRole('radio', { name: 'Cairn’s own document' })).toBeChecked()
  await expect(form.getByText(/^https:\/\/.*\/oauth\/client-metadata\.json$/)).toBeVisible()
  await keepScreenshot(page, 'mcp-logins-light')
  await form.getByRole('radio', { name: 'A document I publish' }).check()
  await form.getByRole('textbox', { name: 'Address of the document' }).fill('http://me.example/c')
  await form.getByRole('button', { name: 'Save login settings' }).click()
  await expect(form.getByText('The address must start with https://.')).toBeVisible()
  await page.setViewportSize({ width: 700, height: 800 })
  await form.scrollIntoViewIfNeeded()
  await keepScreenshot(page, 'mcp-logins-narrow')
  await page.setViewportSize({ width: 1280, height: 720 })
  await form.getByRole('radio', { name: 'Register with each server instead' }).check()
  await form.getByRole('button', { name: 'Save login settings' }).click()
  await expect(form.getByRole('status')).toHaveText('Saved')
  // kept: the page opened again shows the choice
  await page.reload()
  await expect(
    page
      .getByRole('form', { name: 'Logins to remote servers' })
      .getByRole('radio', { name: 'Register with each server instead' }),
  ).toBeChecked()
  await page.goto(`${host.base}/#/settings/general`)
  await page.getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.goto(`${host.base}/#/settings/mcp`)
  await page.getByRole('form', { name: 'Logins to remote servers' }).scrollIntoViewIfNeeded()
  await keepScreenshot(page, 'mcp-logins-dark')
})
