import { readFileSync } from 'node:fs'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { lastToolContent, slowText, textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import {
  approval,
  ask,
  conversation,
  idle,
  keepScreenshot,
  lastAnswer,
  stopButton,
} from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const sidebar = (page: Page): Locator => page.getByRole('region', { name: 'Sessions' })
const chats = (page: Page): Locator =>
  sidebar(page).getByRole('list', { name: 'Chats' }).getByRole('listitem')
const chat = (page: Page, title: string): Locator =>
  sidebar(page).getByRole('button', { name: title, exact: true })
const results = (page: Page): Locator => sidebar(page).getByRole('list', { name: 'Search results' })
const searchBox = (page: Page): Locator => sidebar(page).getByRole('searchbox', { name: 'Search' })

async function newChat(page: Page): Promise<void> {
  await sidebar(page).getByRole('button', { name: 'New chat' }).click()
  await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
}

async function chatWith(page: Page, host: WebHost, question: string, answer: string) {
  host.model.enqueue(textReply(answer))
  await ask(page, question)
  await expect(lastAnswer(page)).toContainText(answer)
  await idle(page)
}

async function action(page: Page, title: string, item: string): Promise<void> {
  await sidebar(page)
    .getByRole('button', { name: `Actions for ${title}` })
    .click()
  await page
    .getByRole('menu', { name: `Actions for ${title}` })
    .getByRole('menuitem', { name: item })
    .click()
}

const echo = (message: string) =>
  toolCallsReply([{ name: 'everything__echo', arguments: JSON.stringify({ message }) }], {
    reasoning: 'The echo tool will repeat it back.',
  })

test('a past chat looks as it did after a restart (tool card, reasoning, a stopped answer); the last one reopens on start', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(echo('granite boulder'), (req) =>
    textReply(`The echo said: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  await ask(page, 'Echo a rock')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('The echo said: Echo: granite boulder')
  await idle(page)

  await newChat(page)
  host.model.enqueue(slowText(400, 30))
  await ask(page, 'A very long story')
  await expect(lastAnswer(page)).toContainText('w5 ')
  await stopButton(page).click()
  await idle(page)
  await expect(lastAnswer(page).getByText('Stopped', { exact: true })).toBeVisible()

  host = await host.restart()
  await page.goto(host.url)
  // no session in the address: the most recently active chat opens
  await expect(chat(page, 'A very long story')).toHaveAttribute('aria-current', 'page')
  await expect(lastAnswer(page).getByText('Stopped', { exact: true })).toBeVisible()
  await expect(lastAnswer(page)).toContainText('w5 ')
  await expect(page).toHaveURL(/#\/session\/[\w-]+$/)
  await expect(chats(page)).toHaveCount(2)
  await keepScreenshot(page, 'sidebar-sessions')

  // the other one, from the sidebar
  await chat(page, 'Echo a rock').click()
  await expect(chat(page, 'Echo a rock')).toHaveAttribute('aria-current', 'page')
  const card = page.getByRole('region', { name: 'Tool call echo on everything' })
  await expect(card.getByRole('status')).toHaveText('Done')
  await expect(card.getByLabel('Tool result')).toHaveText('Echo: granite boulder')
  const thinking = conversation(page).locator('details.thinking').first()
  await thinking.locator('summary').click()
  await expect(thinking).toContainText('The echo tool will repeat it back.')
  await expect(lastAnswer(page)).toContainText('The echo said: Echo: granite boulder')

  // New chat still gives a new chat, and a reload of it does not jump elsewhere
  await newChat(page)
  await expect(sidebar(page).locator('[aria-current="page"]')).toHaveCount(0)
})

test('search finds a message and a tool result, grouped by chat, and opens each highlighted', async ({
  page,
}) => {
  host = await startWebHost({ mcp: true })
  host.model.enqueue(echo('feldspar crystals'), textReply('Done echoing.'))
  await page.goto(host.url)
  await ask(page, 'Echo the mineral')
  await approval(page).getByRole('button', { name: 'Allow once' }).click()
  await expect(lastAnswer(page)).toContainText('Done echoing.')
  await idle(page)
  await newChat(page)
  await chatWith(page, host, 'Tell me about quartz', 'Quartz is hard. Quartz is common.')
  await chatWith(page, host, 'And quartz veins?', 'Veins of quartz fill cracks.')

  // Ctrl/Cmd+K goes to the search box
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.press('ControlOrMeta+k')
  await expect(searchBox(page)).toBeFocused()
  await page.keyboard.type('quartz')
  const list = results(page)
  await expect(list).toBeVisible()
  await expect(sidebar(page).getByRole('list', { name: 'Chats' })).toHaveCount(0)
  // one chat, its title once, its four messages beneath (three shown)
  await expect(list.getByRole('listitem').filter({ has: page.locator('.hit-title') })).toHaveCount(
    1,
  )
  await expect(list.locator('mark').first()).toHaveText(/quartz/i)
  await expect(list.getByRole('button', { name: '1 more in this chat' })).toBeVisible()
  await keepScreenshot(page, 'search-results')
  await list.getByRole('button', { name: /Quartz is hard/ }).click()
  await expect(page).toHaveURL(/#\/session\/[\w-]+\/message\/[\w-]+$/)
  const highlighted = conversation(page).locator('.row[aria-current="true"]')
  await expect(highlighted).toBeVisible()
  await expect(highlighted).toContainText('Quartz is hard.')

  // a tool result: the card of its call, in the other chat
  await searchBox(page).fill('feldspar')
  const tool = list.getByRole('button', { name: /Tool result/ })
  await expect(tool).toHaveCount(1)
  await tool.click()
  const card = page.getByRole('region', { name: 'Tool call echo on everything' })
  await expect(card).toHaveAttribute('aria-current', 'true')
  await expect(card).toBeInViewport()
  await expect(card.getByLabel('Tool result')).toHaveText('Echo: feldspar crystals')

  // quotes and stars are plain characters; Esc clears the search
  await searchBox(page).fill('"feldspar*')
  await expect(list.getByRole('button', { name: /Tool result/ })).toHaveCount(1)
  await searchBox(page).press('Escape')
  await expect(searchBox(page)).toHaveValue('')
  await expect(chats(page)).toHaveCount(2)
})

test('rename, pin, export, delete with Undo and without; shortcuts for new chat and settings', async ({
  page,
}) => {
  host = await startWebHost()
  await page.goto(host.url)
  await chatWith(page, host, 'alpha stones', 'Alpha answer.')
  await newChat(page)
  await chatWith(page, host, 'beta stones', 'Beta answer.')
  await newChat(page)
  await chatWith(page, host, 'gamma stones', 'Gamma answer.')
  const titles = (): Promise<string[]> => chats(page).locator('.session-title').allTextContents()
  await expect.poll(titles).toEqual(['gamma stones', 'beta stones', 'alpha stones'])

  await action(page, 'alpha stones', 'Pin')
  await expect.poll(titles).toEqual(['alpha stones', 'gamma stones', 'beta stones'])
  await expect(chat(page, 'Pinned alpha stones')).toBeVisible()

  await action(page, 'beta stones', 'Rename')
  const field = sidebar(page).getByRole('textbox', { name: 'Title' })
  await field.fill('')
  await field.press('Enter')
  await expect(sidebar(page).getByRole('alert')).toHaveText('A title cannot be empty.')
  await field.fill('Basalt notes')
  await field.press('Enter')
  await expect(chat(page, 'Basalt notes')).toBeVisible()
  await action(page, 'Basalt notes', 'Rename')
  await field.fill('never saved')
  await field.press('Escape')
  await expect(chat(page, 'Basalt notes')).toBeVisible()

  const download = page.waitForEvent('download')
  await action(page, 'alpha stones', 'Export as Markdown')
  const file = await download
  expect(file.suggestedFilename()).toBe('alpha-stones.md')
  const text = readFileSync((await file.path())!, 'utf8')
  expect(text).toContain('alpha stones')
  expect(text).toContain('Alpha answer.')

  // delete, then Undo: it comes back
  await action(page, 'gamma stones', 'Delete')
  const confirm = page.getByRole('dialog', { name: 'Delete this chat?' })
  await expect(confirm).toContainText('gamma stones')
  await keepScreenshot(page, 'delete-confirmation')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(chat(page, 'gamma stones')).toHaveCount(0)
  const toast = sidebar(page).getByRole('status').filter({ hasText: 'Chat deleted' })
  await expect(toast).toBeVisible()
  await toast.getByRole('button', { name: 'Undo' }).click()
  await expect(chat(page, 'gamma stones')).toBeVisible()

  // delete for good: gone after a restart
  await action(page, 'gamma stones', 'Delete')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(toast).toBeVisible()
  await expect(toast).toHaveCount(0, { timeout: 15_000 })
  host = await host.restart()
  await page.goto(host.url)
  await expect.poll(titles).toEqual(['alpha stones', 'Basalt notes'])

  // shortcuts
  await page.keyboard.press('ControlOrMeta+Comma')
  await expect(sidebar(page).getByRole('button', { name: 'Settings' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await page.keyboard.press('ControlOrMeta+n')
  await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
})

test('a search hit in an earlier version of an answer shows that version, highlighted', async ({
  page,
}) => {
  host = await startWebHost()
  await page.goto(host.url)
  await chatWith(page, host, 'Name a dark stone', 'Obsidian is volcanic glass.')
  host.model.enqueue(textReply('Basalt is a dark rock.'))
  await conversation(page).getByRole('button', { name: 'Regenerate' }).click()
  await expect(lastAnswer(page)).toContainText('Basalt is a dark rock.')
  await idle(page)
  await expect(conversation(page).getByRole('group', { name: 'Versions' })).toContainText('2/2')
  await newChat(page)

  await searchBox(page).fill('obsidian')
  await results(page)
    .getByRole('button', { name: /Obsidian is volcanic/ })
    .click()
  const highlighted = conversation(page).locator('.row[aria-current="true"]')
  await expect(highlighted).toBeVisible()
  await expect(highlighted).toContainText('Obsidian is volcanic glass.')
  await expect(conversation(page).getByRole('group', { name: 'Versions' })).toContainText('1/2')
  await expect(conversation(page).getByText('Basalt is a dark rock.')).toHaveCount(0)
  await keepScreenshot(page, 'search-hit-earlier-version')
})
