/**
 * `npm run bench:ui`: the chat window in Chromium against browser mode, on this machine:
 * 1. streams of 1 000 and 3 000 tokens/s for 20 s into a session of 500 messages (frames,
 *    long tasks, the last token's delay), next to the same session idle;
 * 2. opening a session of 10 000 messages (20 fresh tabs) and scrolling up through it;
 * 3. the renderer's JS heap idle, after 10 s and after 20 s of streaming;
 * 4. the sessions sidebar with 1 000 chats and 100 000 messages: cold load and search
 *    (its own data directory and browser mode; see sidebar.ts).
 * A benchmark, not a test: it reports, and exits non-zero only if something failed to run.
 *
 * Options (after `--`): `--out <dir>` the build to measure (default `out`), `--seconds <n>`
 * per stream, `--reps <n>` opens, `--parts 1,2,3` which parts to run, `--profile` CPU
 * profiles of the streams and of one open (time per function, and in the longest tasks).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { launchBrowser, VIEWPORT, type BenchBrowser } from './browser'
import { startBrowserMode, type BrowserModeHost } from './host'
import { measureMemory, type MemoryResult } from './memory'
import { startModelServer, type ModelServer } from './model-server'
import { measureOpen } from './open-session'
import { printMemory, printOpen, printScroll, printStream } from './report'
import { measureScroll } from './scroll'
import { seedSessions, type Seeded } from './seed'
import { measureSidebar, printSidebar, seedSidebar } from './sidebar'
import { measureStream } from './stream'

const RATES = [1000, 3000]

interface Options {
  out: string
  seconds: number
  reps: number
  profile: boolean
  /** which of the three parts to run */
  parts: Set<string>
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'out' },
      seconds: { type: 'string', default: '20' },
      reps: { type: 'string', default: '20' },
      profile: { type: 'boolean', default: false },
      parts: { type: 'string', default: '1,2,3,4' },
    },
  })
  const opts = {
    out: resolve(values.out),
    seconds: Number(values.seconds),
    reps: Number(values.reps),
    profile: values.profile,
    parts: new Set(values.parts.split(',').map((p) => p.trim())),
  }
  if (!(opts.seconds >= 2) || !(opts.reps >= 1))
    throw new Error('--seconds must be ≥ 2, --reps ≥ 1')
  return opts
}

async function main(): Promise<void> {
  const opts = options()
  for (const f of ['web/index.js', 'renderer/index.html']) {
    if (!existsSync(join(opts.out, f)))
      throw new Error(`${join(opts.out, f)} is missing: run npm run build`)
  }
  const tmp = mkdtempSync(join(tmpdir(), 'cairn-bench-ui-'))
  let server: ModelServer | null = null
  let host: BrowserModeHost | null = null
  let browser: BenchBrowser | null = null
  let cleaning: Promise<void> | null = null
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      await browser?.close().catch(() => {})
      await host?.stop().catch(() => {})
      server?.stop()
      rmSync(tmp, { recursive: true, force: true })
    })())
  // Ctrl-C leaves no model server, browser mode or data directory behind
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(code)))
  }
  try {
    const started = performance.now()
    const dataDir = join(tmp, 'data')
    const seeded = seedSessions(dataDir, RATES.length * 2)
    server = await startModelServer()
    host = await startBrowserMode({ outDir: opts.out, dataDir, home: tmp, baseURL: server.baseURL })
    browser = await launchBrowser(host.url)

    console.log('Cairn UI benchmark: the chat window in Chromium, against browser mode')
    console.log(
      `Chromium ${browser.version} headless, no GPU, ${VIEWPORT.width}×${VIEWPORT.height}; node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPUs; build ${opts.out}`,
    )
    console.log(
      `seeded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${seeded.long.length} sessions of 500 messages (${(seeded.long[0]!.chars / 1024).toFixed(0)} KB each), one of 10 000 (${(seeded.many.chars / 1024 / 1024).toFixed(1)} MB)\n`,
    )

    if (opts.parts.has('1')) await streams(opts, browser, server, seeded)
    if (opts.parts.has('2')) await opening(opts, browser, seeded)
    if (opts.parts.has('3')) await memory(opts, browser, server, seeded)
    if (opts.parts.has('4')) {
      // its own data: 1 000 chats would change what the other parts open
      await browser.close()
      await host.stop()
      const sidebarDir = join(tmp, 'sidebar-data')
      const t0 = performance.now()
      const s = seedSidebar(sidebarDir)
      console.log(
        `4. The sessions sidebar: ${s.sessions} chats, ${s.messages} messages (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      )
      host = await startBrowserMode({
        outDir: opts.out,
        dataDir: sidebarDir,
        home: tmp,
        baseURL: server.baseURL,
      })
      browser = await launchBrowser(host.url)
      printSidebar(await measureSidebar(browser, { loads: opts.reps, searches: opts.reps }))
      console.log('')
    }
    console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s in all)`)
  } finally {
    await cleanUp()
  }
}

async function streams(
  opts: Options,
  browser: BenchBrowser,
  server: ModelServer,
  seeded: Seeded,
): Promise<void> {
  console.log('1. Streaming into a session of 500 messages with code blocks and tables')
  let idle = null
  for (const [i, rate] of RATES.entries()) {
    const r = await measureStream(browser, server, seeded.long[i]!, {
      rate,
      seconds: opts.seconds,
      idleSeconds: i === 0 ? opts.seconds : 0,
      profile: opts.profile,
    })
    idle ??= r.idle
    printStream(r, idle)
    console.log('')
  }
}

async function opening(opts: Options, browser: BenchBrowser, seeded: Seeded): Promise<void> {
  console.log(
    `2. Opening the session of 10 000 messages (${opts.reps} times, each in a fresh tab from the new chat)`,
  )
  printOpen(
    await measureOpen(browser, seeded.many, { repetitions: opts.reps, profile: opts.profile }),
  )
  printScroll(await measureScroll(browser, seeded.many, { seconds: 5, pxPerSecond: 10_000 }))
  console.log('')
}

async function memory(
  opts: Options,
  browser: BenchBrowser,
  server: ModelServer,
  seeded: Seeded,
): Promise<void> {
  console.log(
    '3. Renderer memory: JS heap after a full GC, around a stream into a session of 500 messages',
  )
  const results: MemoryResult[] = []
  for (const [i, rate] of RATES.entries()) {
    results.push(
      await measureMemory(browser, server, seeded.long[RATES.length + i]!, {
        rate,
        seconds: opts.seconds,
      }),
    )
  }
  printMemory(results)
  console.log('')
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
