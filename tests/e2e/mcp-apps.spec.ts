/**
 * Tools' views (MCP Apps) in browser mode, in Chromium, against the scripted Apps server
 * (tests/fixtures/mcp/apps-server.mjs): the card asks before showing a server's view; once
 * allowed the view shows in the card, hears the tool's input and result, and its button's
 * call goes through the approval dialog (which says the view asks) and its result reaches
 * the view. A hostile view tries to get out of its frame and fails at every attempt.
 */
import { createServer, type Server } from 'node:http'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { approval, ask, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost | null = null
let target: Server | null = null
test.afterEach(async () => {
  await host?.stop()
  host = null
  await new Promise((r) => (target ? target.close(r) : r(null)))
  target = null
})

const FIXTURE = join(process.cwd(), 'tests', 'fixtures', 'mcp', 'apps-server.mjs')

/** browser mode with the Apps server in its settings (`allowViews` as given) */
async function startWithApps(allowViews: boolean, escapeTarget = 'http://127.0.0.1:9') {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-apps-'))
  mkdirSync(join(dataDir, 'data'), { recursive: true, mode: 0o700 })
  writeFileSync(
    join(dataDir, 'data', 'settings.json'),
    JSON.stringify({
      mcpServers: {
        apps: {
          command: process.execPath,
          args: [FIXTURE],
          env: { ESCAPE_TARGET: escapeTarget },
          ...(allowViews ? { allowViews: true } : {}),
        },
      },
    }),
    { mode: 0o600 },
  )
  host = await startWebHost({ dataDir })
  return host
}

const card = (page: Page, tool: string) =>
  page.getByRole('region', { name: `Tool call ${tool} on apps` })

test('a view shows in its card once allowed, and its button calls a tool through the approval dialog', async ({
  page,
}) => {
  const h = await startWithApps(false)
  h.model.enqueue(
    toolCallsReply([{ name: 'apps__show_counter', arguments: '{"label":"trail"}' }]),
    textReply('Here is the counter.'),
  )
  await page.goto(h.url)
  await ask(page, 'Show the counter')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('Here is the counter.')
  const c = card(page, 'show_counter')
  // not allowed yet: the card says so, and the text result is there all the same
  await expect(c.getByText('This server wants to show an interactive view.')).toBeVisible()
  await expect(c.getByLabel('Tool result')).toHaveText('Counter at 0')
  await expect(c.locator('iframe')).toHaveCount(0)
  await c.getByRole('button', { name: 'Allow views from apps' }).click()

  const frame = c.locator('iframe[title="View of show_counter from apps"]')
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-forms')
  const view = frame.contentFrame()
  await expect(view.locator('#result')).toHaveText('Counter at 0')
  await expect(view.locator('#input')).toHaveText('{"label":"trail"}')
  await expect(view.locator('#theme')).toHaveText('light')

  await view.getByRole('button', { name: 'Add one' }).click()
  const dialog = approval(page)
  await expect(dialog.locator('.approval-tool')).toHaveText('add')
  await expect(dialog.getByRole('note')).toHaveText(
    'Asked by the interactive view of apps, not by the model.',
  )
  await expect(dialog.getByLabel('Arguments')).toHaveText(JSON.stringify({ by: 1 }, null, 2))
  await dialog.getByRole('button', { name: 'Allow once' }).click()
  await expect(view.locator('#added')).toHaveText('Counter at 1')

  // a denied call reaches the view as a refusal
  await view.getByRole('button', { name: 'Add one' }).click()
  await approval(page).getByRole('button', { name: 'Deny' }).click()
  await expect(view.locator('#added')).toHaveText(/^refused: You denied the call of add/)

  await keepScreenshot(page, 'mcp-app-view-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(view.locator('#theme')).toHaveText('dark')
  await keepScreenshot(page, 'mcp-app-view-dark')
  await page.setViewportSize({ width: 420, height: 800 })
  await c.scrollIntoViewIfNeeded()
  await keepScreenshot(page, 'mcp-app-view-narrow')
})

test('a hostile view reaches neither the page, its storage, nor any address it did not declare', async ({
  page,
}) => {
  const hits: string[] = []
  target = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<p>escaped</p>')
  })
  await new Promise<void>((r) => target!.listen(0, '127.0.0.1', r))
  const port = (target.address() as { port: number }).port
  const h = await startWithApps(true, `http://127.0.0.1:${port}`)
  h.model.enqueue(
    toolCallsReply([{ name: 'apps__probe_escape', arguments: '{}' }]),
    textReply('Probed.'),
  )
  await page.goto(h.url)
  await ask(page, 'Probe')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('Probed.')
  const c = card(page, 'probe_escape')
  // what the view declared beyond Cairn's limits is refused, and the card says so
  await expect(
    c.getByText(/Not allowed for this view: \* \(not an https or wss origin\)/),
  ).toBeVisible()
  const view = c.locator('iframe').contentFrame()
  await expect(view.locator('#done')).toHaveText('done')
  const results = await view.locator('#results li').allTextContents()
  const outcome = Object.fromEntries(
    results.map((r) => [r.slice(0, r.indexOf(':')), r.slice(r.indexOf(':') + 2)]),
  )
  for (const attempt of [
    'parent document',
    'parent bridge',
    'top location',
    'cookie',
    'localStorage',
    'indexedDB',
    'fetch undeclared',
    'image undeclared',
    'top navigation',
    'popup',
  ]) {
    expect(outcome[attempt], attempt).toMatch(/^blocked/)
  }
  expect(outcome['policy violations']).toMatch(/connect-src/)
  expect(outcome['policy violations']).toMatch(/img-src/)
  // it posts a form to that address: form-action refuses it (the frame is left on an error page)
  await view.getByRole('button', { name: 'Post' }).click()
  await expect(view.locator('#done')).toHaveCount(0)
  await page.waitForTimeout(1000)
  expect(hits).toEqual([])
  // the window is still Cairn's page, at the chat
  expect(new URL(page.url()).origin).toBe(h.base)
  expect(new URL(page.url()).pathname).toBe('/')
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible()
  // its ui/message is answered "not found" (Cairn takes no messages from views): nothing was sent
  expect(h.model.requests).toHaveLength(2)
})
