/**
 * Logging in to a protected remote MCP server from browser mode: the server shows "needs
 * login", "Log in" opens the browser (BROWSER: a script that follows the authorization
 * address back to Cairn's loopback callback), and the server turns ready with its tools;
 * after a restart of the host it is still logged in.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { join } from 'node:path'
import { startOAuthServer, type OAuthServer } from '../support/oauth-server'
import { startWebHost, type WebHost } from './support/web-host'

let host: WebHost
let auth: OAuthServer
test.afterEach(async () => {
  await host?.stop()
  await auth?.close()
})

const row = (page: Page, name: string): Locator =>
  page.getByRole('listitem', { name: new RegExp(`^${name}, `) })

test('a remote server that needs a login: Log in, the browser comes back, its tools work after a restart', async ({
  page,
}) => {
  auth = await startOAuthServer({ challengeScope: 'read' })
  const browser = join(process.cwd(), 'tests', 'fixtures', 'mcp', 'oauth-browser.mjs')
  host = await startWebHost({ env: { BROWSER: `${process.execPath} ${browser}` } })
  await page.goto(host.url)
  await page.goto(`${host.base}/#/settings/mcp`)
  await page.getByRole('button', { name: 'Paste JSON' }).click()
  await page
    .getByRole('textbox', { name: 'Claude Desktop JSON' })
    .fill(JSON.stringify({ mcpServers: { remote: { url: auth.url } } }))
  await page.getByRole('button', { name: 'Review' }).click()
  await page.getByRole('button', { name: /^Add server$/ }).click()
  const server = row(page, 'remote')
  await server.getByRole('switch', { name: 'Enabled remote' }).click()
  await expect(server).toHaveAccessibleName('remote, needs login')
  await expect(server.getByLabel('What went wrong with remote')).toContainText('log in')

  await server.getByRole('button', { name: 'Log in to remote' }).click()
  await expect(server.getByRole('status')).toContainText(`${auth.origin}/authorize?`)
  await expect(server).toHaveAccessibleName('remote, ready')
  await expect(server.getByText('3 tools')).toBeVisible()

  host = await host.restart()
  await page.goto(host.url)
  await page.goto(`${host.base}/#/settings/mcp`)
  await expect(row(page, 'remote')).toHaveAccessibleName('remote, ready')
  // one login: the restarted host used the stored token
  expect(auth.requests.filter((r) => r.path === '/authorize')).toHaveLength(1)
})
