/**
 * The window in Simplified Chinese and in Japanese, chosen as a user would (Settings ›
 * General › Language): the chat with an answer and a tool call, the approval dialog, the
 * sidebar, Settings › General and Usage show no English besides names and what the user
 * and the model wrote. Screenshots: test-results/screens/lang-<language>-<screen>.png
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { lastToolContent, textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { keepScreenshot } from './support/ui'

let host: WebHost | undefined
test.afterEach(async () => {
  await host?.stop()
  host = undefined
})

type Tree = { [key: string]: string | Tree }
const locale = (lng: string): Tree =>
  JSON.parse(
    readFileSync(join(process.cwd(), 'src-renderer/src/i18n/locales', `${lng}.json`), 'utf8'),
  ) as Tree
/** a text of a locale by its key (a.b.c) */
function text(tree: Tree, key: string): string {
  let node: string | Tree = tree
  for (const part of key.split('.')) {
    if (typeof node === 'string') break
    node = node[part] ?? ''
  }
  if (typeof node !== 'string' || !node) throw new Error(`no text at ${key}`)
  return node
}

/**
 * What is on screen in English: visible texts and the names and hints people read
 * (aria-label, placeholder, title) with two English words or more in a row. Names (the
 * product's, the tool's and server's, a model's, a file format) and what the user, the
 * model and the MCP server wrote (messages, answers, titles, arguments, results, a tool's
 * description) are not the window's words.
 */
async function englishLeft(page: Page, root: string, own: string[] = []): Promise<string[]> {
  return page.evaluate<string[]>(`((root, own) => {
    // the context meter's title names where its window comes from in the engine's words
    // (sessions.context's windowSource, English): not yet the window's to say
    const SKIP = '.context-meter, .msg .text, .bubble .text, pre, code, kbd, option, .tool-name, .tool-server, .approval-tool, .approval-server, .session-title, .chat-title, .hit-snippet, .model-picker, .usage-table tbody th, .approval-description, [data-names]'
    const NAMES = /\\b(Cairn|ChatGPT|Claude|conversations\\.json|MCP|API|URL|JSON|Markdown|curl|Ollama|OpenAI|OpenRouter|LM Studio|llama\\.cpp|everything|echo|GGUF)\\b/g
    const ENGLISH = /\\b[A-Za-z][a-z]+\\b[\\s,.:;'’()-]+\\b[A-Za-z][a-z]+\\b/
    const doc = globalThis.document
    const found = []
    const check = (where, s) => {
      let rest = (s ?? '').replace(NAMES, ' ')
      for (const o of own) rest = rest.split(o).join(' ')
      if (ENGLISH.test(rest)) found.push(where + ': ' + s.trim().slice(0, 80))
    }
    const top = doc.querySelector(root)
    if (!top) return ['nothing matches ' + root]
    const walker = doc.createTreeWalker(top, 4)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement
      if (!el || el.closest(SKIP)) continue
      if (el.getClientRects().length === 0 && !el.closest('.visually-hidden')) continue
      check('text', n.textContent)
    }
    for (const el of Array.from(top.querySelectorAll('[aria-label], [placeholder], [title]'))) {
      if (el.closest(SKIP)) continue
      for (const a of ['aria-label', 'placeholder', 'title']) {
        if (el.hasAttribute(a)) check(a, el.getAttribute(a))
      }
    }
    return [...new Set(found)]
  })(${JSON.stringify(root)}, ${JSON.stringify(own)})`)
}

async function openSettings(page: Page, section: string): Promise<void> {
  await page.evaluate(`globalThis.location.hash = '#/settings/${section}'`)
  await expect(page.getByRole('heading', { level: 2 })).toBeVisible()
}

for (const lng of ['zh-CN', 'ja'] as const) {
  test(`in ${lng}: chat, tool approval, sidebar, General and Usage have no English left`, async ({
    page,
  }) => {
    test.setTimeout(240_000)
    const tr = locale(lng)
    const t = (key: string): string => text(tr, key)
    await page.setViewportSize({ width: 1280, height: 800 })
    host = await startWebHost({ mcp: true })
    host.model.enqueue(
      toolCallsReply([
        { name: 'everything__echo', arguments: JSON.stringify({ message: 'stones' }) },
      ]),
      (req) => textReply(`The echo said: ${lastToolContent(req)}`),
    )
    await page.goto(host.url)

    // the language is chosen in Settings › General, as a user would
    await openSettings(page, 'general')
    await page.getByLabel('Language', { exact: true }).selectOption(lng)
    await expect(page.getByLabel(t('general.language.label'), { exact: true })).toHaveValue(lng)
    await expect(page.locator('html')).toHaveAttribute('lang', lng)
    expect(await englishLeft(page, 'main')).toEqual([])
    await keepScreenshot(page, `lang-${lng}-settings-general`)

    // a chat: the question, the approval dialog, the tool's card and the answer
    await page.getByRole('button', { name: t('settings.back') }).click()
    await page.getByRole('textbox', { name: t('composer.message') }).fill('Echo something')
    await page.getByRole('button', { name: t('composer.send'), exact: true }).click()
    const dialog = page.getByRole('dialog', { name: t('approval.title') })
    await expect(dialog).toBeVisible()
    expect(await englishLeft(page, '[role="dialog"]')).toEqual([])
    await keepScreenshot(page, `lang-${lng}-approval`)
    await dialog.getByRole('button', { name: t('approval.once') }).click()
    await expect(dialog).toHaveCount(0)
    const answer = page.getByRole('article', { name: 'Cairn' }).last()
    await expect(answer).toContainText('The echo said: Echo: stones')
    await expect(page.getByRole('button', { name: t('composer.send'), exact: true })).toBeVisible()
    await expect(answer.getByRole('button', { name: t('chat.regenerate') })).toBeVisible()
    // the chat's title is the user's question
    expect(await englishLeft(page, 'body', ['Echo something'])).toEqual([])
    await keepScreenshot(page, `lang-${lng}-chat`)

    // Usage: the chart and the tables of what that answer used
    await openSettings(page, 'usage')
    await expect(page.getByRole('table', { name: t('usage.byModel') })).toBeVisible()
    expect(await englishLeft(page, 'main')).toEqual([])
    await keepScreenshot(page, `lang-${lng}-settings-usage`)
  })
}

/**
 * Text that is cut: a button, label, heading, tab or table header whose text is wider than
 * its box while the box hides what overflows (ellipsis included: a control's name must be
 * read whole).
 */
async function cutText(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const doc = globalThis.document
    const win = globalThis.window
    const out = []
    const els = doc.querySelectorAll('button, label, h1, h2, h3, summary, legend, th, [role="tab"], .badge, .meta, .tool-status')
    for (const el of Array.from(els)) {
      if (el.getClientRects().length === 0 || el.closest('.visually-hidden, pre, .session-title, .chat-title')) continue
      const s = win.getComputedStyle(el)
      const hides = s.overflowX !== 'visible' || s.textOverflow === 'ellipsis'
      // a box of 1 px is a label kept for screen readers only
      if (hides && el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
        out.push(el.tagName.toLowerCase() + ' "' + (el.textContent ?? '').trim().slice(0, 50) + '" ' + el.scrollWidth + ' > ' + el.clientWidth)
    }
    return out
  })()`)
}

test.describe('the pseudo-locale (en-XA: every text longer)', () => {
  test.use({ locale: 'en-XA' })

  for (const width of [600, 1280]) {
    test(`at ${width} px no text of the chat, General and Usage is cut`, async ({ page }) => {
      test.setTimeout(180_000)
      await page.setViewportSize({ width, height: 800 })
      host = await startWebHost()
      host.model.enqueue(textReply('Cairns mark a path across bare ground.'))
      await page.goto(host.url)
      await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA')
      const box = page.locator('textarea.composer-box, form.composer textarea').first()
      await box.fill('What is a cairn?')
      await box.press('Enter')
      await expect(page.getByRole('article', { name: 'Cairn' }).last()).toContainText(
        'Cairns mark a path',
      )
      await expect(page.locator('button.send')).toBeVisible()
      expect(await cutText(page)).toEqual([])
      await keepScreenshot(page, `pseudo-${width}-chat`)
      for (const section of ['general', 'usage']) {
        await openSettings(page, section)
        expect(await cutText(page)).toEqual([])
        await keepScreenshot(page, `pseudo-${width}-settings-${section}`)
      }
    })
  }
})
