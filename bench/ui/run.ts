/**
 * `npm run bench:ui`: the chat window in Chromium against browser mode, on this machine:
 * 1. streams of every shape (`shapes.ts`) at 1 000 and 3 000 tokens/s for 20 s into a
 *    session of 500 messages (frames in each half, long tasks, the last token's delay),
 *    next to the same session idle;
 * 2. opening a session of 500 messages and one of 10 000 (20 fresh tabs each, a click in
 *    the sidebar) and scrolling up through the long one;
 * 3. the renderer's JS heap idle, after 10 s and after 20 s of streaming, and once the
 *    chat is left;
 * 4. the sessions sidebar with 1 000 chats and 100 000 messages: cold load and search
 *    (its own data directory and browser mode; see sidebar.ts);
 * 5. attaching ten 12-megapixel photos while an answer streams (attach-photos.ts).
 * A benchmark, not a test: it reports, and exits non-zero only if something failed to run.
 *
 * Options (after `--`): `--out <dir>` the build to measure (default `out`), `--shape
 * <names>` and `--rate <n,…>` the streams of parts 1 and 3 (default: every shape, 1000 and
 * 3000), `--seconds <n>` per stream, `--reps <n>` opens, `--parts 1,2,3,4` which parts to
 * run (default 1 to 5), `--profile` CPU profiles of the streams and of one open (the top five functions by
 * self time, over the stream and in its longest tasks), `--trace` Chromium's trace of each
 * stream summed into the renderer main thread's CPU time per kind of work (script, style,
 * layout, paint…: figures the machine's load does not inflate).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { measureAttachWhileStreaming, printAttach } from './attach-photos'
import { launchBrowser, VIEWPORT, type BenchBrowser } from './browser'
import { startBrowserMode, type BrowserModeHost } from './host'
import { measureMemory, type MemoryResult } from './memory'
import { startModelServer, type ModelServer } from './model-server'
import { measureOpen } from './open-session'
import {
  printMemory,
  printOpen,
  printScroll,
  printStream,
  printStreamHeader,
  TARGETS,
} from './report'
import { measureScroll } from './scroll'
import { seedSessions, writeSettings, type Seeded, type SeededSession } from './seed'
import { measureSidebar, printSidebar, seedSidebar } from './sidebar'
import { isShape, SHAPE_NAMES, SHAPES, type ShapeName } from './shapes'
import { frameStats } from './stats'
import { measureStream, type StreamResult } from './stream'

/** the shapes of part 3's streams (unless --shape names others) */
const MEMORY_SHAPES: ShapeName[] = ['mixed', 'small-code']

interface Options {
  out: string
  seconds: number
  reps: number
  profile: boolean
  /** Chromium's trace of each stream */
  trace: boolean
  /** functions listed by --profile */
  profileTop: number
  /** which of the five parts to run */
  parts: Set<string>
  shapes: ShapeName[]
  /** the --shape option was given */
  shapesNamed: boolean
  rates: number[]
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'out' },
      seconds: { type: 'string', default: '20' },
      reps: { type: 'string', default: '20' },
      profile: { type: 'boolean', default: false },
      trace: { type: 'boolean', default: false },
      'profile-top': { type: 'string', default: '5' },
      parts: { type: 'string', default: '1,2,3,4,5' },
      shape: { type: 'string' },
      rate: { type: 'string', default: '1000,3000' },
    },
  })
  const list = (v: string): string[] =>
    v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
  const shapes = values.shape === undefined ? SHAPE_NAMES : list(values.shape)
  for (const name of shapes) {
    if (!isShape(name)) {
      throw new Error(`--shape ${name}: no such shape; the shapes are ${SHAPE_NAMES.join(', ')}`)
    }
  }
  const opts: Options = {
    out: resolve(values.out),
    seconds: Number(values.seconds),
    reps: Number(values.reps),
    profile: values.profile,
    trace: values.trace,
    profileTop: Number(values['profile-top']),
    parts: new Set(list(values.parts)),
    shapes: shapes as ShapeName[],
    shapesNamed: values.shape !== undefined,
    rates: list(values.rate).map(Number),
  }
  if (!(opts.seconds >= 2) || !(opts.reps >= 1))
    throw new Error('--seconds must be ≥ 2, --reps ≥ 1')
  if (opts.rates.length === 0 || opts.rates.some((r) => !(r >= 1)))
    throw new Error('--rate takes tokens per second, as 1000 or 1000,3000')
  return opts
}

/** the streams of part 3: its own shapes, or those --shape named */
const memoryShapes = (opts: Options): ShapeName[] =>
  opts.shapesNamed ? opts.shapes : MEMORY_SHAPES

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
    const streamCount =
      (opts.parts.has('1') ? opts.shapes.length * opts.rates.length : 0) +
      (opts.parts.has('3') ? memoryShapes(opts).length * opts.rates.length : 0) +
      (opts.parts.has('5') ? 1 : 0)
    const seeded = seedSessions(dataDir, Math.max(1, streamCount))
    writeSettings(dataDir, join(tmp, 'workspace'))
    server = await startModelServer()
    host = await startBrowserMode({ outDir: opts.out, dataDir, home: tmp, baseURL: server.baseURL })
    browser = await launchBrowser(host.url)

    console.log('Cairn UI benchmark: the chat window in Chromium, against browser mode')
    console.log(
      `Chromium ${browser.version} headless, no GPU, ${VIEWPORT.width}×${VIEWPORT.height}; node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPUs; build ${opts.out}`,
    )
    console.log(
      `seeded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${seeded.long.length + 1} sessions of 500 messages (${(seeded.long[0]!.chars / 1024).toFixed(0)} KB each), one of 10 000 (${(seeded.many.chars / 1024 / 1024).toFixed(1)} MB)\n`,
    )

    // each stream gets a session of its own, all alike
    const sessions = [...seeded.long]
    if (opts.parts.has('1')) await streams(opts, browser, server, sessions)
    if (opts.parts.has('2')) await opening(opts, browser, seeded)
    if (opts.parts.has('3')) await memory(opts, browser, server, sessions)
    if (opts.parts.has('5')) {
      console.log('5. Attaching photos while an answer streams (1 000 tokens/s)')
      printAttach(
        await measureAttachWhileStreaming(browser, server, sessions.shift()!, {
          photos: 10,
          rate: 1000,
          seconds: opts.seconds,
        }),
      )
      console.log('')
    }
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
      printSidebar(await measureSidebar(browser, { loads: opts.reps, searches: opts.reps }), {
        firstPaint: TARGETS.firstPaintMs,
      })
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
  sessions: SeededSession[],
): Promise<void> {
  console.log(
    `1. Streaming into a session of 500 messages with code blocks and tables, for ${opts.seconds} s each`,
  )
  for (const shape of opts.shapes) console.log(`   ${shape.padEnd(14)}${SHAPES[shape]}`)
  let first = true
  for (const shape of opts.shapes) {
    for (const rate of opts.rates) {
      const r: StreamResult = await measureStream(browser, server, sessions.shift()!, {
        shape,
        rate,
        seconds: opts.seconds,
        idleSeconds: first ? Math.min(opts.seconds, 10) : 0,
        profile: opts.profile ? opts.profileTop : 0,
        trace: opts.trace,
      })
      if (first) printStreamHeader(frameStats(r.idle!), r.idleTimes['cpu'] ?? NaN)
      first = false
      printStream(r)
    }
  }
  console.log('')
}

async function opening(opts: Options, browser: BenchBrowser, seeded: Seeded): Promise<void> {
  for (const session of [seeded.toOpen, seeded.many]) {
    console.log(
      `2. Opening the session of ${session.messages.toLocaleString('en-US').replace(/,/g, ' ')} messages (${opts.reps} times, each in a fresh tab from the new chat, by a click in the sidebar)`,
    )
    printOpen(
      await measureOpen(browser, session, { repetitions: opts.reps, profile: opts.profile }),
    )
  }
  printScroll(await measureScroll(browser, seeded.many, { seconds: 5, pxPerSecond: 10_000 }))
  console.log('')
}

async function memory(
  opts: Options,
  browser: BenchBrowser,
  server: ModelServer,
  sessions: SeededSession[],
): Promise<void> {
  console.log(
    '3. Renderer memory: JS heap after a full GC, around a stream into a session of 500 messages',
  )
  const results: MemoryResult[] = []
  for (const shape of memoryShapes(opts)) {
    for (const rate of opts.rates) {
      results.push(
        await measureMemory(browser, server, sessions.shift()!, {
          shape,
          rate,
          seconds: opts.seconds,
        }),
      )
    }
  }
  printMemory(results)
  console.log('')
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
