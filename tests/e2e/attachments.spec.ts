/**
 * Attachments as a new user meets them in browser mode (files go to the engine through the
 * upload address): a pasted screenshot and an attached PDF and DOCX reach the model (one
 * image part at most 2048 px; the documents' text), the history shows a thumbnail that
 * opens large (Enter; Esc closes) and document cards with their extracted text; the chat
 * exported as Markdown downloads as one ZIP with its files; a blind model refuses the image
 * before sending, keeping the message; a corrupt PDF and a 60 MB file are refused by name
 * and Cairn goes on; a scanned PDF's pages are sent as images; the files attached but not
 * sent stay with their chat when another is opened.
 * Screenshots: the composer with chips, the history with an image and a document (light,
 * dark, narrow 600 px).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import sharp from 'sharp'
import { textReply } from '../support/openai-server'
import {
  bigText,
  brokenPdf,
  docxFile,
  imageOnlyPdf,
  screenshotPng,
  textPdf,
} from '../support/attachment-files'
import { startWebHost, type WebHost } from './support/web-host'
import { idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

const chips = (page: Page) => page.getByRole('list', { name: 'Attachments' })

/** pastes a PNG into the message box, as a screenshot tool's clipboard holds one */
async function pasteImage(page: Page, png: Uint8Array): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).evaluate((box, bytes) => {
    // the page's own classes (the specs are typechecked without the DOM's types)
    const w = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } }
      ClipboardEvent: new (
        type: string,
        init: { clipboardData: unknown; bubbles: boolean },
      ) => never
      File: new (parts: Uint8Array[], name: string, opts: { type: string }) => unknown
    }
    const data = new w.DataTransfer()
    data.items.add(new w.File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }))
    box.dispatchEvent(new w.ClipboardEvent('paste', { clipboardData: data, bubbles: true }))
  }, Array.from(png))
}

test('a pasted screenshot and an attached PDF and DOCX reach the model and show in the history', async ({
  page,
}) => {
  test.setTimeout(180_000)
  host = await startWebHost()
  await page.goto(host.url)
  await pasteImage(page, await screenshotPng(2880, 1800))
  await page.getByLabel('Files to attach').setInputFiles([
    {
      name: 'report.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await textPdf(['The puffin colony grew by a third', 'Second page'])),
    },
    {
      name: 'minutes.docx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(await docxFile(['The harbour wall needs repair'])),
    },
  ])
  await expect(chips(page).getByRole('listitem')).toHaveCount(3)
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 90_000 })
  await expect(chips(page)).toContainText('report.pdf')
  await expect(chips(page)).toContainText('2 pages')
  await expect(chips(page).getByRole('button', { name: 'Remove minutes.docx' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).fill('What do these say?')
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await keepScreenshot(page, `attachments-composer-${theme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  host.model.enqueue(textReply('A screenshot, a report on puffins and minutes about a wall.'))
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(lastAnswer(page)).toContainText('puffins')
  await idle(page)

  const body = host.model.requests.at(-1)!.body as {
    messages: {
      role: string
      content: { type: string; text?: string; image_url?: { url: string } }[]
    }[]
  }
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!
  const images = user.content.filter((p) => p.type === 'image_url')
  expect(images).toHaveLength(1)
  const png = Buffer.from(images[0]!.image_url!.url.split(',')[1]!, 'base64')
  const meta = await sharp(png).metadata()
  expect(Math.max(meta.width!, meta.height!)).toBe(2048)
  expect(meta.exif).toBeUndefined()
  const text = user.content[0]!.text!
  expect(text).toContain('The puffin colony grew by a third')
  expect(text).toContain('The harbour wall needs repair')

  // the history: a thumbnail that opens large, and document cards
  const you = page.getByRole('article', { name: 'You' }).last()
  const thumb = you.getByRole('button', { name: 'Open image.png' })
  await expect(thumb.locator('img')).toBeVisible()
  await expect(you.getByRole('region', { name: 'report.pdf' })).toContainText('2 pages')
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await keepScreenshot(page, `attachments-history-${theme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 600, height: 800 })
  await keepScreenshot(page, 'attachments-history-narrow')
  await page.setViewportSize({ width: 1280, height: 720 })
  await thumb.focus()
  await page.keyboard.press('Enter')
  const viewer = page.getByRole('dialog', { name: 'image.png' })
  await expect(viewer.getByRole('img', { name: 'image.png' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(viewer).toHaveCount(0)
  const card = you.getByRole('region', { name: 'minutes.docx' })
  await card.getByRole('button', { name: 'Show extracted text' }).click()
  await expect(card).toContainText('The harbour wall needs repair')

  // exported as Markdown: the browser downloads one ZIP, the Markdown and its files
  const download = page.waitForEvent('download')
  await page
    .getByRole('button', { name: /^Actions for / })
    .first()
    .click()
  await page.getByRole('menuitem', { name: 'Export as Markdown' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/\.zip$/)
  const zip = unzipSync(new Uint8Array(readFileSync((await file.path())!)))
  const names = Object.keys(zip)
  const md = names.find((n) => n.endsWith('.md'))!
  expect(md).toBe(file.suggestedFilename().replace(/\.zip$/, '.md'))
  const folder = md.replace(/\.md$/, '-attachments/')
  const inFolder = names.filter((n) => n.startsWith(folder))
  expect(inFolder).toHaveLength(3)
  const markdown = strFromU8(zip[md]!)
  for (const n of inFolder) expect(markdown).toContain(`(<${n}>)`)
  const pdf = inFolder.find((n) => n.endsWith('.pdf'))!
  expect(strFromU8(zip[pdf]!.subarray(0, 5))).toBe('%PDF-')
})

test('an image for a blind model is refused before sending; the message and files stay', async ({
  page,
}) => {
  host = await startWebHost()
  // the server says what the model takes: no images
  host.model.modelsReply = {
    type: 'http',
    status: 200,
    body: {
      object: 'list',
      data: [
        {
          id: 'm',
          owned_by: 'cairn-local',
          context_length: 8192,
          capabilities: { tools: true, vision: false },
        },
      ],
    },
  }
  await page.goto(host.url)
  await pasteImage(page, await screenshotPng(400, 300))
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 })
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('What is on my screen?')
  await box.press('Enter')
  await expect(
    page.getByText(
      'Not sent: m cannot see images: pick a vision model or remove the image (image.png).',
    ),
  ).toBeVisible()
  await expect(box).toHaveValue('What is on my screen?')
  await expect(chips(page)).toContainText('image.png')
  expect(host.model.requests).toHaveLength(0)
})

test('a corrupt PDF and a 60 MB file are refused by name, and Cairn goes on', async ({ page }) => {
  test.setTimeout(120_000)
  host = await startWebHost()
  await page.goto(host.url)
  const input = page.getByLabel('Files to attach')
  await input.setInputFiles({
    name: 'broken.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(brokenPdf()),
  })
  await expect(page.getByText(/broken\.pdf cannot be attached \(PDF\)/)).toBeVisible({
    timeout: 60_000,
  })
  // Playwright hands over at most 50 MB from memory: the 60 MB file is written first
  const huge = test.info().outputPath('huge.log')
  writeFileSync(huge, bigText(60 * 1024 * 1024))
  await input.setInputFiles(huge)
  await expect(page.getByText(/huge\.log is 60 MB: a document may be at most 50 MB/)).toBeVisible({
    timeout: 60_000,
  })
  await expect(page.getByRole('list', { name: 'Attachments' })).toHaveCount(0)
  host.model.enqueue(textReply('Still here.'))
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Are you there?')
  await box.press('Enter')
  await expect(lastAnswer(page)).toContainText('Still here.')
})

test('a scanned PDF is said to have no text, and its pages can go as images', async ({ page }) => {
  test.setTimeout(120_000)
  host = await startWebHost()
  await page.goto(host.url)
  await page.getByLabel('Files to attach').setInputFiles({
    name: 'scan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await imageOnlyPdf(2)),
  })
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 })
  await expect(chips(page)).toContainText('2 pages · no text found')
  await chips(page)
    .getByRole('button', { name: 'Send the first pages of scan.pdf as images' })
    .click()
  await expect(chips(page).getByRole('listitem')).toHaveCount(2, { timeout: 60_000 })
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 })
  await expect(chips(page)).toContainText('scan.pdf, page 1')
  await expect(chips(page)).toContainText('scan.pdf, page 2')
  await expect(chips(page).locator('img.chip-thumb')).toHaveCount(2)
  host.model.enqueue(textReply('Two blue blocks.'))
  await page.getByRole('textbox', { name: 'Message' }).fill('What is on these pages?')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(lastAnswer(page)).toContainText('Two blue blocks.')
  const body = host.model.requests.at(-1)!.body as {
    messages: { role: string; content: { type: string }[] }[]
  }
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!
  expect(user.content.filter((p) => p.type === 'image_url')).toHaveLength(2)
})

test('files attached but not sent stay with their chat when another is opened', async ({
  page,
}) => {
  test.setTimeout(120_000)
  host = await startWebHost()
  await page.goto(host.url)
  const box = page.getByRole('textbox', { name: 'Message' })
  host.model.enqueue(textReply('First answer.'))
  await box.fill('First chat')
  await box.press('Enter')
  await expect(lastAnswer(page)).toContainText('First answer.')
  await idle(page)
  // in this chat: a typed text and a file, not sent
  await box.fill('about the report')
  await page.getByLabel('Files to attach').setInputFiles({
    name: 'report.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await textPdf(['Gannets nest on the stack'])),
  })
  await expect(chips(page)).toContainText('report.pdf')
  // another chat: its own box, no files
  const sidebar = page.getByRole('region', { name: 'Sessions' })
  await sidebar.getByRole('button', { name: 'New chat' }).click()
  await expect(box).toHaveValue('')
  await expect(chips(page)).toHaveCount(0)
  // back: the text and the file are there, and go together
  await sidebar
    .getByRole('list', { name: 'Chats' })
    .getByRole('listitem')
    .first()
    .getByRole('button')
    .first()
    .click()
  await expect(box).toHaveValue('about the report')
  await expect(chips(page)).toContainText('report.pdf')
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 60_000 })
  host.model.enqueue(textReply('Gannets.'))
  await box.press('Enter')
  await expect(lastAnswer(page)).toContainText('Gannets.')
  await expect(chips(page)).toHaveCount(0)
  const body = host.model.requests.at(-1)!.body as {
    messages: { role: string; content: string | { type: string; text?: string }[] }[]
  }
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!
  expect(JSON.stringify(user.content)).toContain('Gannets nest on the stack')
})
