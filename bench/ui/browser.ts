/**
 * Debian's Chromium (never a downloaded one) driven by playwright-core, with a fixed
 * viewport and the probe (`page/probe.ts`) in every page before the app's scripts.
 */
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core'
import { installProbe, NAME_SHIM } from './page/probe'

export const CHROMIUM = '/usr/bin/chromium'
export const VIEWPORT = { width: 1280, height: 900 }
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
]

export interface BenchPage {
  page: Page
  cdp: CDPSession
  close(): Promise<void>
}

export interface BenchBrowser {
  version: string
  /**
   * a new tab on `<origin>/<hash>`, the app started (its message box is there); the default
   * `#/new` is a new chat (an empty address reopens the last chat)
   */
  open(hash?: string): Promise<BenchPage>
  close(): Promise<void>
}

export async function launchBrowser(url: string): Promise<BenchBrowser> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    // the run closes the browser itself on a signal, with the rest (`run.ts`)
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  const context: BrowserContext = await browser.newContext({ viewport: VIEWPORT })
  await context.addInitScript({ content: NAME_SHIM })
  await context.addInitScript(installProbe)
  // the printed address exchanges its token for a cookie: later loads go without it
  const first = await context.newPage()
  await first.goto(url)
  await first.getByRole('textbox', { name: 'Message' }).waitFor()
  await first.close()
  const origin = new URL(url).origin
  return {
    version: browser.version(),
    async open(hash = '#/new') {
      const page = await context.newPage()
      await page.goto(`${origin}/${hash}`)
      await page.getByRole('textbox', { name: 'Message' }).waitFor()
      const cdp = await context.newCDPSession(page)
      return {
        page,
        cdp,
        close: async () => {
          await cdp.detach().catch(() => {})
          await page.close()
        },
      }
    },
    close: () => browser.close(),
  }
}
