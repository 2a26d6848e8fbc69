/**
 * `npm run bench:ui`: the chat window in Chromium against browser mode, on this machine:
 * 1. streams of 1 000 and 3 000 tokens/s for 20 s into a session of 500 messages (frames,
 *    long tasks, the last token's delay), next to the same session idle;
 * 2. opening a session of 10 000 messages (20 fresh tabs) and scrolling up through it;
 * 3. the renderer's JS heap idle, after 10 s and after 20 s of streaming.
 * A benchmark, not a test: it reports, and exits non-zero only if something failed to run.
 *
 * Options: `--out <dir>` the build to measure (default `out`), `--seconds <n>` per stream,
 * `--reps <n>` opens, `--profile` CPU profiles of the streams (self time per function).
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
import { seedSessions } from './seed'
import { measureStream } from './stream'

const RATES = [1000, 3000]

function options(): { out: string; seconds: number; reps: number; profile: boolean } {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'out' },
      seconds: { type: 'string', default: '20' },
      reps: { type: 'string', default: '20' },
      profile: { type: 'boolean', default: false },
    },
  })
  return {
    out: resolve(values.out),
    seconds: Number(values.seconds),
    reps: Number(values.reps),
    profile: values.profile,
  }
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

    console.log(
      `2. Opening the session of 10 000 messages (${opts.reps} times, each in a fresh tab from the new chat)`,
    )
    printOpen(await measureOpen(browser, seeded.many, opts.reps))
    printScroll(await measureScroll(browser, seeded.many, { seconds: 5, pxPerSecond: 10_000 }))
    console.log('')

    console.log(
      '3. Renderer memory: JS heap after a full GC, around a stream into a session of 500 messages',
    )
    const memory: MemoryResult[] = []
    for (const [i, rate] of RATES.entries()) {
      memory.push(
        await measureMemory(browser, server, seeded.long[RATES.length + i]!, {
          rate,
          seconds: opts.seconds,
        }),
      )
    }
    printMemory(memory)
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`)
  } finally {
    await browser?.close().catch(() => {})
    await host?.stop().catch(() => {})
    server?.stop()
    rmSync(tmp, { recursive: true, force: true })
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
