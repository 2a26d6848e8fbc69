/**
 * A Claude Desktop extension chosen in browser mode's file input, reviewed and installed
 * switched off; and Settings › Skills with a skill of the data directory, shown. Screens
 * kept light, dark and narrow.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { greeterBundle } from '../support/mcpb'
import { keepScreenshot } from './support/ui'
import { startWebHost, type WebHost } from './support/web-host'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const VIEWS = [
  { name: 'light', theme: 'light', size: { width: 1280, height: 900 } },
  { name: 'dark', theme: 'dark', size: { width: 1280, height: 900 } },
  { name: 'narrow', theme: 'light', size: { width: 600, height: 900 } },
] as const

async function open(page: Page, view: (typeof VIEWS)[number], section: string): Promise<void> {
  await page.setViewportSize(view.size)
  await page.addInitScript(`localStorage.setItem('cairn.theme', '${view.theme}')`)
  await page.goto(host.url)
  await page.goto(`${host.base}/#/settings/${section}`)
}

for (const view of VIEWS) {
  test(`${view.name}: an extension is reviewed and installed switched off; Settings › Skills shows a skill`, async ({
    page,
  }) => {
    test.setTimeout(180_000)
    const dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-ext-'))
    const skill = join(dir, 'data', 'skills', 'notes')
    mkdirSync(skill, { recursive: true })
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Write release notes from a list of changes.\n---\nGroup the changes by kind, newest first.\n',
    )
    const bundle = join(dir, 'greeter.mcpb')
    writeFileSync(bundle, greeterBundle())
    host = await startWebHost({ dataDir: dir })

    await open(page, view, 'mcp')
    await page.getByLabel('Extension file (.mcpb)').setInputFiles(bundle)
    const review = page.getByRole('region', { name: 'Review the extension greeter' })
    await expect(review).toBeVisible({ timeout: 30_000 })
    await expect(review.getByText('Ada Example, ada@example.com')).toBeVisible()
    await review.getByLabel('API key (required, sensitive, kept with the API keys)').fill('sk-e2e')
    await review.scrollIntoViewIfNeeded()
    await keepScreenshot(page, `extension-review-${view.name}`)
    await review.getByRole('button', { name: 'Install, switched off' }).click()
    await expect(page.getByText('Installed greeter, switched off')).toBeVisible()
    await expect(page.getByRole('listitem', { name: /^greeter, / })).toBeVisible()

    await page.goto(`${host.base}/#/settings/skills`)
    const row = page.getByRole('listitem', { name: 'release-notes' })
    await expect(row).toBeVisible()
    await row.getByRole('button', { name: 'Show' }).click()
    await expect(row.getByLabel('SKILL.md of release-notes')).toContainText('Group the changes')
    await keepScreenshot(page, `skills-${view.name}`)
  })
}
