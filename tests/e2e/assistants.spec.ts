import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { textReply, type RecordedRequest, type Reply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer, stopButton } from './support/ui'

let host: WebHost | undefined
test.afterEach(async () => {
  await host?.stop()
  host = undefined
})

async function openAssistants(page: Page): Promise<void> {
  await page.evaluate(() => {
    // runs in the page
    const page = globalThis as unknown as { location: { hash: string } }
    page.location.hash = '#/settings/assistants'
  })
  await expect(page.getByRole('heading', { level: 2, name: 'Assistants' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Assistants' })).toBeVisible()
}

async function newChat(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Back to chat' }).click()
  await page.getByRole('button', { name: 'New chat' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'New chat' })).toBeVisible()
}

/** the names of the tools offered in the request that carried `text` */
function offeredWith(requests: RecordedRequest[], text: string): string[] | undefined {
  const r = requests.findLast((q) =>
    JSON.stringify(q.body?.messages ?? []).includes(JSON.stringify(text).slice(1, -1)),
  )
  if (!r) throw new Error(`no request carried ${text}`)
  const tools = r.body.tools as { function: { name: string } }[] | undefined
  return tools?.map((t) => t.function.name)
}

/** the system's theme (no choice is stored, so the window follows it) */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme })
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

/** keeps `<name>-light` and `<name>-dark`; the window is back in the light theme after */
async function keepBothThemes(page: Page, name: string): Promise<void> {
  await keepScreenshot(page, `${name}-light`)
  await setTheme(page, 'dark')
  await keepScreenshot(page, `${name}-dark`)
  await setTheme(page, 'light')
}

/**
 * starts the host (with the everything MCP server for `mcp`; kept in `host`, so afterEach
 * stops it whatever fails next) and opens its window, light, on Assistants
 */
async function openOnAssistants(page: Page, opts: { mcp?: boolean } = {}): Promise<WebHost> {
  const started = await startWebHost(opts)
  host = started
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(started.url)
  await openAssistants(page)
  return started
}

test('an assistant that may use one tool: made in the window, a new chat started with it offers the model only that tool; switching the chat to Chat offers none', async ({
  page,
}) => {
  host = await openOnAssistants(page)
  const list = page.getByRole('list', { name: 'Assistants' })
  await expect(list.getByRole('listitem', { name: 'Chat' })).toContainText('Built-in')
  await keepBothThemes(page, 'assistants-list')

  await page.getByRole('button', { name: 'New assistant' }).click()
  const form = page.getByRole('form', { name: 'New assistant' })
  await expect(form.getByLabel('Name')).toBeFocused()
  await form.getByRole('button', { name: 'Save assistant' }).click()
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByText('Give the assistant a name.')).toBeVisible()
  await form.getByLabel('Temperature').fill('7')
  await form.getByRole('button', { name: 'Save assistant' }).click()
  await expect(form.getByLabel('Temperature')).toHaveAttribute('aria-invalid', 'true')
  await keepScreenshot(page, 'assistants-form-errors')
  await form.getByLabel('Name').fill('Lister')
  await form.getByLabel('Description').fill('Lists folders, nothing else')
  await form.getByLabel('Use the system prompt from the settings').uncheck()
  await form
    .getByRole('textbox', { name: 'System prompt' })
    .fill('You list folders and nothing else.')
  await form.getByLabel('Temperature').fill('0.3')
  await form.getByLabel('Name').focus()
  await keepScreenshot(page, 'assistants-form-top')
  const builtin = form.getByRole('group', { name: 'Built-in tools' })
  await builtin.getByRole('radio', { name: 'Chosen' }).check()
  await builtin.getByRole('checkbox', { name: 'list_directory' }).check()
  await form
    .getByRole('group', { name: 'Other MCP servers' })
    .getByRole('radio', { name: 'No tools' })
    .check()
  const preview = page.getByRole('region', { name: 'Tools the model will see' })
  const offered = preview.getByRole('list', { name: 'Offered tools' }).getByRole('listitem')
  await expect(offered).toHaveCount(1)
  await expect(offered.first()).toContainText('list_directory')
  await expect(preview.getByRole('status')).toHaveText('1 tool')
  await keepBothThemes(page, 'assistants-form')
  await form.getByRole('button', { name: 'Save assistant' }).click()
  await expect(list.getByRole('listitem', { name: 'Lister' })).toContainText(
    'Built-in tools: list_directory · MCP tools: none',
  )

  await newChat(page)
  const picker = page.getByRole('combobox', { name: 'Assistant' })
  await picker.selectOption({ label: 'Lister' })
  await keepBothThemes(page, 'assistants-new-chat-picker')
  host.model.enqueue(textReply('Only one tool here.'))
  await ask(page, 'What may you use?')
  await expect(lastAnswer(page)).toContainText('Only one tool here.')
  await idle(page)
  expect(offeredWith(host.model.requests, 'What may you use?')).toEqual(['list_directory'])
  // the rest of the form reaches the model too
  const first = host.model.requests.findLast((q) =>
    JSON.stringify(q.body?.messages ?? []).includes('What may you use?'),
  )!
  expect(first.body.temperature).toBe(0.3)
  expect(first.body.messages[0]).toMatchObject({ role: 'system' })
  expect(JSON.stringify(first.body.messages[0].content)).toContain(
    'You list folders and nothing else.',
  )
  await expect(picker).toHaveValue(/.+/)
  await expect(picker.locator('option:checked')).toHaveText('Lister')

  await picker.selectOption({ label: 'Chat' })
  await expect(picker.locator('option:checked')).toHaveText('Chat')
  await keepBothThemes(page, 'assistants-header-picker')
  host.model.enqueue(textReply('No tools now.'))
  await ask(page, 'And now?')
  await expect(lastAnswer(page)).toContainText('No tools now.')
  await idle(page)
  expect(offeredWith(host.model.requests, 'And now?') ?? []).toEqual([])

  // a narrow window keeps the picker, named
  await page.setViewportSize({ width: 760, height: 600 })
  await expect(page.getByRole('combobox', { name: 'Assistant' })).toBeVisible()
  await keepScreenshot(page, 'assistants-header-narrow')
  await page.setViewportSize({ width: 1280, height: 720 })

  // the chat keeps its assistant across a reload
  await page.reload()
  await expect(
    page.getByRole('combobox', { name: 'Assistant' }).locator('option:checked'),
  ).toHaveText('Chat')
})

test('assistants are duplicated, exported, deleted (the chat that used one goes on) and imported back', async ({
  page,
}) => {
  host = await openOnAssistants(page)
  const list = page.getByRole('list', { name: 'Assistants' })

  await page.getByRole('button', { name: 'Duplicate Files' }).click()
  const copy = list.getByRole('listitem', { name: 'Files (copy)' })
  await expect(copy).toBeVisible()
  await expect(
    page.getByRole('status').filter({ hasText: 'Duplicated Files as Files (copy).' }),
  ).toBeVisible()

  // a chat started with the copy
  await newChat(page)
  const picker = page.getByRole('combobox', { name: 'Assistant' })
  await picker.selectOption({ label: 'Files (copy)' })
  host.model.enqueue(textReply('Started with the copy.'))
  await ask(page, 'Hello copy')
  await expect(lastAnswer(page)).toContainText('Started with the copy.')
  await idle(page)
  await openAssistants(page)

  const download = page.waitForEvent('download')
  await copy.getByRole('button', { name: 'Export Files (copy)' }).click()
  const file = await (await download).path()
  const exported = JSON.parse(readFileSync(file, 'utf8')) as {
    cairnAssistant: number
    assistant: { name: string; tools: unknown }
  }
  expect(exported.cairnAssistant).toBe(1)
  expect(exported.assistant.name).toBe('Files (copy)')
  expect(JSON.stringify(exported)).not.toMatch(/"id"|createdAt/)

  await copy.getByRole('button', { name: 'Delete Files (copy)' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete this assistant?' })
  await expect(dialog).toContainText('keep their own copy')
  await keepBothThemes(page, 'assistants-delete-dialog')
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(copy).toHaveCount(0)

  // the chat that used it goes on with its copy
  await page.getByRole('button', { name: 'Back to chat' }).click()
  await expect(picker.locator('option:checked')).toHaveText('Files (copy) (deleted)')
  host.model.enqueue(textReply('Still here.'))
  await ask(page, 'Still there?')
  await expect(lastAnswer(page)).toContainText('Still here.')
  await idle(page)
  await openAssistants(page)

  const input = page.getByLabel('Import an assistant from a file')
  await input.setInputFiles(file)
  // its policy (read-only calls run) asks less than the settings' (ask): imported with yours,
  // and the window asks
  const policy = page.getByRole('dialog', { name: 'Use the file’s permission policy?' })
  await expect(policy).toContainText('came with the policy “Read-only calls run, the rest ask”')
  await expect(policy.getByRole('button', { name: 'Keep my policy' })).toBeFocused()
  await keepBothThemes(page, 'assistants-import-policy')
  await page.setViewportSize({ width: 420, height: 800 })
  await keepScreenshot(page, 'assistants-import-policy-narrow')
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.keyboard.press('Enter')
  await expect(policy).toHaveCount(0)
  await expect(list.getByRole('listitem', { name: 'Files (copy)' })).toBeVisible()
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Imported Files (copy). It follows your permission policy.' }),
  ).toBeVisible()
  // the same file again: the name is taken, the import gets another; this time its policy
  await input.setInputFiles(file)
  await policy.getByRole('button', { name: 'Use “Read-only calls run, the rest ask”' }).click()
  await expect(list.getByRole('listitem', { name: 'Files (copy) (2)' })).toBeVisible()
  await expect(
    page.getByRole('status').filter({ hasText: 'Files (copy) (2) uses the policy of its file.' }),
  ).toBeVisible()

  await input.setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello": "world"}'),
  })
  await expect(page.getByRole('alert')).toContainText('Could not import notes.json:')
  await keepScreenshot(page, 'assistants-import-error')
})

test('an assistant that may use one tool of an MCP server: chosen in the form, previewed, kept when edited, the only tool offered; a switch while an answer is written applies from the next turn', async ({
  page,
}) => {
  host = await openOnAssistants(page, { mcp: true })
  await page.getByRole('button', { name: 'New assistant' }).click()
  const form = page.getByRole('form', { name: 'New assistant' })
  await form.getByLabel('Name').fill('Echo only')
  await form
    .getByRole('group', { name: 'Built-in tools' })
    .getByRole('radio', { name: 'None' })
    .check()
  const server = form.getByRole('group', { name: 'MCP server everything' })
  await expect(server.getByRole('radio', { name: 'Like other servers' })).toBeChecked()
  await server.getByRole('radio', { name: 'Chosen' }).check()
  // its tools are listed once the server runs
  await server.getByRole('checkbox', { name: /^echo( |$)/ }).check()
  await form
    .getByRole('group', { name: 'Other MCP servers' })
    .getByRole('radio', { name: 'No tools' })
    .check()
  const preview = page.getByRole('region', { name: 'Tools the model will see' })
  const offered = preview.getByRole('list', { name: 'Offered tools' }).getByRole('listitem')
  await expect(offered).toHaveCount(1)
  await expect(offered.first()).toContainText('everything')
  await expect(offered.first()).toContainText('echo')
  await server.scrollIntoViewIfNeeded()
  await keepBothThemes(page, 'assistants-form-mcp')
  await form.getByRole('button', { name: 'Save assistant' }).click()

  // editing shows the choice as it was saved
  await page.getByRole('button', { name: 'Edit Echo only' }).click()
  const edit = page.getByRole('form', { name: 'Edit Echo only' })
  await expect(
    edit.getByRole('group', { name: 'Built-in tools' }).getByRole('radio', { name: 'None' }),
  ).toBeChecked()
  const saved = edit.getByRole('group', { name: 'MCP server everything' })
  await expect(saved.getByRole('radio', { name: 'Chosen' })).toBeChecked()
  await expect(saved.getByRole('checkbox', { name: /^echo( |$)/ })).toBeChecked()
  await expect(saved.getByRole('checkbox', { name: /^get-env( |$)/ })).not.toBeChecked()
  await edit.getByRole('button', { name: 'Cancel' }).click()

  await newChat(page)
  const picker = page.getByRole('combobox', { name: 'Assistant' })
  await picker.selectOption({ label: 'Echo only' })
  host.model.enqueue(textReply('Echo is all I have.'))
  await ask(page, 'Which tools?')
  await expect(lastAnswer(page)).toContainText('Echo is all I have.')
  await idle(page)
  expect(offeredWith(host.model.requests, 'Which tools?')).toEqual(['everything__echo'])

  // an answer that goes on until stopped: the switch made meanwhile waits for the next turn
  const hanging = { ...textReply('Still writing'), end: 'hang' } as Reply
  host.model.enqueue(hanging)
  await ask(page, 'Write for a while')
  await expect(lastAnswer(page)).toContainText('Still writing')
  await expect(stopButton(page)).toBeVisible()
  await picker.selectOption({ label: 'Chat' })
  await expect(
    page.getByRole('status').filter({ hasText: 'Applies from the next turn' }),
  ).toBeVisible()
  await keepBothThemes(page, 'assistants-header-running-note')
  expect(offeredWith(host.model.requests, 'Write for a while')).toEqual(['everything__echo'])
  await stopButton(page).click()
  await idle(page)
  await expect(page.getByText('Applies from the next turn')).toHaveCount(0)
  host.model.enqueue(textReply('Words only.'))
  await ask(page, 'Next turn')
  await expect(lastAnswer(page)).toContainText('Words only.')
  await idle(page)
  expect(offeredWith(host.model.requests, 'Next turn') ?? []).toEqual([])
})
