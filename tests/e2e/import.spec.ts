/**
 * Importing chats in the window (issue 21), browser mode: Settings › General › "Import
 * chats…" uploads a ChatGPT .zip and a Claude export, a summary says what came; a word of
 * each is found in the sidebar's search, an imported chat goes on with the scripted model
 * (sent its open branch); the same file again adds nothing; a truncated export imports
 * what it can and names what it skipped; a file that is not an export is refused clearly;
 * a large one shows its progress and can be cancelled. Screenshots: progress and summary,
 * light, dark and narrow.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { textReply } from '../support/openai-server'
import { writeGeneratedExport } from '../support/generated-export'
import { startWebHost, type WebHost } from './support/web-host'
import { conversation, idle, keepScreenshot, lastAnswer, ask } from './support/ui'

const FIXTURES = join(process.cwd(), 'tests', 'fixtures', 'import')
let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const sidebar = (page: Page): Locator => page.getByRole('region', { name: 'Sessions' })
const section = (page: Page): Locator => page.getByRole('group', { name: 'Import chats' })
const summary = (page: Page): Locator => page.getByRole('status', { name: 'Import summary' })

async function openGeneral(page: Page): Promise<void> {
  await page.evaluate(() => {
    // runs in the page
    const page = globalThis as unknown as { location: { hash: string } }
    page.location.hash = '#/settings/general'
  })
  await expect(section(page)).toBeVisible()
}

async function importFile(
  page: Page,
  file: string | { name: string; buffer: Buffer },
): Promise<void> {
  const input = section(page).getByLabel('Export file to import')
  await input.setInputFiles(
    typeof file === 'string' ? file : { ...file, mimeType: 'application/json' },
  )
}

async function keepThemes(page: Page, name: string): Promise<void> {
  await keepScreenshot(page, `${name}-light`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await keepScreenshot(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 420, height: size.height })
  await keepScreenshot(page, `${name}-narrow`)
  await page.setViewportSize(size)
}

test('import ChatGPT and Claude exports, search them, continue one, import again, a truncated one', async ({
  page,
}) => {
  test.setTimeout(240_000)
  host = await startWebHost()
  await page.goto(host.url)
  await page.emulateMedia({ colorScheme: 'light' })
  await openGeneral(page)

  await importFile(page, join(FIXTURES, 'chatgpt-export.zip'))
  await expect(summary(page)).toContainText('Imported chatgpt-export.zip.')
  await expect(summary(page)).toContainText('New chats: 2')
  await expect(summary(page)).toContainText('Messages added: 9')
  await section(page).scrollIntoViewIfNeeded()
  await keepThemes(page, 'import-summary')

  await importFile(page, join(FIXTURES, 'claude-conversations.json'))
  await expect(summary(page)).toContainText('Imported claude-conversations.json.')
  await expect(summary(page)).toContainText('New chats: 2')

  // the same export again: nothing added
  await importFile(page, join(FIXTURES, 'chatgpt-conversations.json'))
  await expect(summary(page)).toContainText('Imported chatgpt-conversations.json.')
  await expect(summary(page)).toContainText('New chats: 0')
  await expect(summary(page)).toContainText('Conversations already here: 2')

  // a truncated export: what came before, and what was skipped
  const whole = readFileSync(join(FIXTURES, 'claude-conversations.json'), 'utf8')
  await importFile(page, {
    name: 'cut.json',
    buffer: Buffer.from(whole.slice(0, whole.indexOf('Sourdough') + 20)),
  })
  await expect(summary(page)).toContainText('Imported cut.json.')
  await expect(summary(page)).toContainText('Conversations already here: 1')
  await expect(summary(page).getByRole('list', { name: 'Skipped conversations' })).toHaveText(
    'Conversation 2 (untitled): the file ends before it does',
  )
  await summary(page).scrollIntoViewIfNeeded()
  await keepThemes(page, 'import-skipped')

  // not an export at all: said, nothing else changes
  await importFile(page, { name: 'notes.json', buffer: Buffer.from('just notes') })
  await expect(section(page).getByRole('alert')).toContainText(
    'notes.json cannot be imported: it is not a chat export.',
  )

  // the chats, marked as imported; a word of each found
  await page.getByRole('button', { name: 'Back to chat' }).click()
  await expect(sidebar(page).getByRole('img', { name: 'Imported from ChatGPT' })).toHaveCount(2)
  await expect(sidebar(page).getByRole('img', { name: 'Imported from Claude' })).toHaveCount(2)
  const search = sidebar(page).getByRole('searchbox', { name: 'Search' })
  const results = sidebar(page).getByRole('list', { name: 'Search results' })
  await search.fill('Rottnest')
  await expect(results.getByRole('button', { name: /Rottnest Island/ })).toHaveCount(1)
  await search.fill('axolotl')
  await results.getByRole('button', { name: /axolotl tank should/ }).click()
  await expect(conversation(page)).toContainText('Earthworms and sinking pellets.')

  // continued with the scripted model: it is sent the open branch, then the question
  host.model.enqueue(textReply('Twice a week.'))
  await ask(page, 'How often should I feed it?')
  await expect(lastAnswer(page)).toContainText('Twice a week.')
  await idle(page)
  const sent = (host.model.requests.at(-1)!.body.messages as { role: string; content: string }[])
    .filter((m) => m.role !== 'system')
    .map((m) => m.content)
  expect(sent.slice(-3)).toEqual([
    'And what should they eat?',
    'Earthworms and sinking pellets.',
    'How often should I feed it?',
  ])
})

test('a large export shows its progress and can be cancelled; what came stays', async ({
  page,
}) => {
  test.setTimeout(240_000)
  host = await startWebHost()
  const file = join(host.dataDir, 'big-conversations.json')
  await writeGeneratedExport(file, { conversations: 400, messages: 6, chars: 3000 })
  await page.goto(host.url)
  await page.emulateMedia({ colorScheme: 'light' })
  await openGeneral(page)
  await importFile(page, file)
  const bar = section(page).getByRole('progressbar', { name: 'Importing big-conversations.json' })
  await expect(bar).toBeVisible()
  await expect(section(page)).toContainText(/conversations read: [1-9]/)
  await bar.scrollIntoViewIfNeeded()
  await keepThemes(page, 'import-progress')
  await section(page).getByRole('button', { name: 'Cancel import' }).click()
  await expect(summary(page)).toContainText('Stopped importing big-conversations.json.')
  await expect(summary(page)).not.toContainText('New chats: 400')
})
