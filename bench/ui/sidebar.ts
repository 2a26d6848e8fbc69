/**
 * The sessions sidebar with 1 000 chats and 100 000 messages, in its own browser mode:
 * - cold load: a fresh tab (cold cache), from navigation start to the first paint and to
 *   the sidebar being interactive (its first chat rows on screen and the next frame ran);
 * - search: from the input event of a query in the search box to its results painted
 *   (a pause before each query, as a user pausing; every query different, so none is
 *   answered from the cache), for common words, rare words and two-word queries.
 */
import type { Page } from 'playwright-core'
import type { NewMessage } from '../../src-preload/contract/dto'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import type { BenchBrowser } from './browser'
import { percentile } from './stats'
import { rng, TextMaker } from './text'

export const SIDEBAR_SESSIONS = 1_000
export const MESSAGES_PER_SESSION = 100
/** words each in a few messages only */
const RARE = 400

/** 1 000 sessions of 100 messages; one in 250 messages also holds a rare word `quarzit<n>` */
export function seedSidebar(dataDir: string): { sessions: number; messages: number } {
  let t = Date.UTC(2025, 0, 1)
  const store = createSessionStore(dataDir, { now: () => (t += 1_000) })
  const text = new TextMaker(rng(42))
  let n = 0
  try {
    for (let s = 0; s < SIDEBAR_SESSIONS; s++) {
      const session = store.createSession({ title: `Chat ${s + 1}: ${text.sentence()}` })
      store.batch(() => {
        for (let i = 0; i < MESSAGES_PER_SESSION; i++, n++) {
          let content = `${text.sentence()} ${text.sentence()}`
          if (n % 250 === 0) content += ` quarzit${(n / 250) % RARE}`
          const m: NewMessage = { role: i % 2 === 0 ? 'user' : 'assistant', content }
          store.appendMessage(session.id, m)
        }
      })
      if (s % 50 === 0) store.updateSession(session.id, { pinned: s % 100 === 0 })
    }
  } finally {
    store.close()
  }
  return { sessions: SIDEBAR_SESSIONS, messages: n }
}

export interface SidebarResult {
  firstPaint: number[]
  interactive: number[]
  search: { kind: string; ms: number[] }[]
}

const NAV = 'section[aria-label="Sessions"]'

/** the little of the DOM the in-page code here uses (the bench compiles without the DOM lib) */
interface El {
  getAttribute(name: string): string | null
  querySelector(selector: string): El | null
  parentElement: El | null
  textContent: string | null
  dispatchEvent(e: unknown): boolean
}
interface SidebarPage {
  performance: { now(): number; getEntriesByType(t: string): { name: string; startTime: number }[] }
  requestAnimationFrame(cb: () => void): number
  document: { querySelector(selector: string): El | null }
  HTMLInputElement: { prototype: object }
  Event: new (type: string, init: { bubbles: boolean }) => unknown
}

/** ms from navigation start: first paint, and the first chat rows painted */
async function coldLoad(page: Page): Promise<{ paint: number; interactive: number }> {
  return page.evaluate(async (nav) => {
    const w = globalThis as unknown as SidebarPage
    const frame = (): Promise<number> => new Promise((r) => w.requestAnimationFrame(() => r(0)))
    while (!w.document.querySelector(`${nav} [role="listitem"] button`)) await frame()
    await frame()
    const interactive = w.performance.now()
    const paint = w.performance
      .getEntriesByType('paint')
      .find((e) => e.name === 'first-contentful-paint')
    return { paint: paint?.startTime ?? NaN, interactive }
  }, NAV)
}

/** ms from the input event to the results painted (the next frame after they are in the DOM) */
async function searchOnce(page: Page, query: string): Promise<number> {
  return page.evaluate(
    async ([nav, q]) => {
      const w = globalThis as unknown as SidebarPage
      const box = w.document.querySelector(`${nav} input[aria-label="Search"]`)!
      const setter = Object.getOwnPropertyDescriptor(w.HTMLInputElement.prototype, 'value')!.set!
      const ready = (): boolean => {
        const list = w.document.querySelector(`${nav} ul[aria-label="Search results"]`)
        return (
          list !== null &&
          list.getAttribute('aria-busy') === 'false' &&
          (list.querySelector('mark') !== null ||
            /No matches/.test(list.parentElement!.textContent!))
        )
      }
      const t0 = w.performance.now()
      setter.call(box, q)
      box.dispatchEvent(new w.Event('input', { bubbles: true }))
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (ready()) w.requestAnimationFrame(() => resolve())
          else w.requestAnimationFrame(check)
        }
        check()
      })
      return w.performance.now() - t0
    },
    [NAV, query] as const,
  )
}

async function clear(page: Page): Promise<void> {
  await page.locator(`${NAV} input[aria-label="Search"]`).press('Escape')
  await page.locator(`${NAV} [role="listitem"] button`).first().waitFor()
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

export async function measureSidebar(
  browser: BenchBrowser,
  opts: { loads: number; searches: number },
): Promise<SidebarResult> {
  const result: SidebarResult = { firstPaint: [], interactive: [], search: [] }
  for (let i = 0; i < opts.loads; i++) {
    const { page, close } = await browser.open('#/new')
    try {
      const r = await coldLoad(page)
      // (a tab may report no first-contentful-paint entry: left out)
      if (Number.isFinite(r.paint)) result.firstPaint.push(r.paint)
      result.interactive.push(r.interactive)
    } finally {
      await close()
    }
  }
  // every query different, so none is answered from the cache
  const common = (
    'stream render frame token message session answer block layout paint worker query cache ' +
    'window request server model history scroll list node value state event buffer handler'
  ).split(' ')
  const word = (i: number): string => common[i % common.length]!
  const kinds: { kind: string; query: (i: number) => string }[] = [
    { kind: 'a common word', query: (i) => word(i) },
    { kind: 'a rare word', query: (i) => `quarzit${(i * 7) % RARE}` },
    { kind: 'two words', query: (i) => `${word(i)} ${word(i * 3 + 1)}` },
  ]
  const { page, close } = await browser.open('#/new')
  try {
    await page.locator(`${NAV} [role="listitem"] button`).first().waitFor()
    for (const k of kinds) {
      const ms: number[] = []
      for (let i = 0; i < Math.min(opts.searches, common.length); i++) {
        await sleep(400)
        ms.push(await searchOnce(page, k.query(i)))
        await clear(page)
      }
      result.search.push({ kind: k.kind, ms })
    }
  } finally {
    await close()
  }
  return result
}

const f = (ms: number): string => `${ms.toFixed(0)} ms`

export function printSidebar(r: SidebarResult, targets: { firstPaint: number }): void {
  const line = (name: string, xs: number[], target: number): void => {
    const p95 = percentile(xs, 0.95)
    console.log(
      `   ${name.padEnd(34)} p50 ${f(percentile(xs, 0.5)).padStart(7)}  p95 ${f(p95).padStart(7)}  max ${f(Math.max(...xs)).padStart(7)}  (target ≤ ${target} ms: ${p95 <= target ? 'met' : 'MISSED'})`,
    )
  }
  console.log(`   cold load, ${r.firstPaint.length} fresh tabs:`)
  line('first paint', r.firstPaint, targets.firstPaint)
  line('sidebar interactive', r.interactive, 1_500)
  console.log('   search, input event to results painted:')
  for (const s of r.search) line(`${s.kind} (${s.ms.length} queries)`, s.ms, 100)
}
