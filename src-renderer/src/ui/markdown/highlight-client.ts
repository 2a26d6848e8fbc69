/**
 * The page's side of highlighting: sends one code block at a time to the highlight worker,
 * caches the answers (a small LRU keyed by language and code), and guards the page against
 * a grammar that runs away: a block whose tokenizing takes longer than `timeoutMs` is shown
 * plain, the worker is terminated and a fresh one serves the next block. Where there is no
 * `Worker` (tests under jsdom), or it cannot start, every block is simply shown plain.
 *
 * Answers are handed to the page at most once per animation frame, all those that came
 * meanwhile together: an answer full of small code blocks renders their highlighting in
 * one update per frame, not one per block.
 */
import { animationFrames, FrameBatcher, type FrameScheduler } from '../../state/frame-batcher'
import type { HighlightLines } from './highlight-core'
import type { HighlightReply, HighlightRequest } from './highlight-protocol'
import { resolveLanguage, withinHighlightLimits } from './languages'

/** The part of `Worker` this module uses (tests pass fakes). */
export interface WorkerLike {
  postMessage(message: HighlightRequest): void
  terminate(): void
  onmessage: ((event: MessageEvent<HighlightReply>) => void) | null
  onerror: ((event: Event) => void) | null
}

export interface HighlightClientOptions {
  /** A new worker, or null where workers are not available. */
  createWorker: () => WorkerLike | null
  /** Budget for tokenizing one block once its grammar is loaded. */
  timeoutMs?: number
  /** Budget for loading a grammar (first use of a language). */
  loadTimeoutMs?: number
  /** How many results to keep. */
  cacheSize?: number
  /** When answers are handed over (default: the next animation frame; at once without one). */
  scheduler?: FrameScheduler
}

export interface HighlightClient {
  /** The cached result: tokens, null (shown plain), or undefined when not known yet. */
  peek(code: string, lang: string): HighlightLines | null | undefined
  /** Tokens for the block, or null to show it plain. Never rejects. */
  highlight(code: string, lang: string): Promise<HighlightLines | null>
  /** Stops the worker; pending blocks resolve to null. */
  dispose(): void
}

interface Job {
  id: number
  key: string
  code: string
  lang: string
  resolve: (lines: HighlightLines | null) => void
}

/** After this many workers in a row fail to start, highlighting is given up for the session. */
const MAX_START_FAILURES = 3

/** Null when the block is not one to highlight at all (unknown language, too large). */
function keyOf(code: string, lang: string): string | null {
  const id = resolveLanguage(lang)
  return id === null || !withinHighlightLimits(code) ? null : `${id}\u0000${code}`
}

/** The tokens spell out exactly the code (else something went wrong: show it plain). */
function matches(lines: HighlightLines, code: string): boolean {
  let text = ''
  lines.forEach((line, i) => {
    if (i > 0) text += '\n'
    for (const t of line) text += t.content
  })
  return text === code
}

/** A map that keeps its `size` most recently used entries. */
function lru<V>(size: number) {
  const map = new Map<string, V>()
  return {
    has: (key: string): boolean => map.has(key),
    get: (key: string): V | undefined => map.get(key),
    /** sets it (again) as the most recently used */
    set(key: string, value: V): void {
      map.delete(key)
      map.set(key, value)
      while (map.size > size) {
        const oldest = map.keys().next().value
        if (oldest === undefined) break
        map.delete(oldest)
      }
    },
  }
}

const immediate: FrameScheduler = {
  request(cb) {
    cb()
    return () => {}
  },
}

/**
 * One worker at a time, one job at a time: `run` posts a job and calls `done` with its
 * tokens (null: show it plain; `cacheIt` false when the failure says nothing of the block).
 */
function createRunner(
  options: HighlightClientOptions,
  done: (lines: HighlightLines | null, cacheIt: boolean) => void,
) {
  const timeoutMs = options.timeoutMs ?? 2_000
  const loadTimeoutMs = options.loadTimeoutMs ?? 15_000
  let worker: WorkerLike | null = null
  let current: Job | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let startFailures = 0
  let unavailable = false

  const clearTimer = (): void => {
    if (timer !== null) clearTimeout(timer)
    timer = null
  }
  const arm = (ms: number): void => {
    clearTimer()
    timer = setTimeout(onTimeout, ms)
  }
  const kill = (): void => {
    clearTimer()
    if (worker) {
      worker.onmessage = null
      worker.onerror = null
      worker.terminate()
    }
    worker = null
  }
  const end = (lines: HighlightLines | null, cacheIt: boolean): void => {
    current = null
    clearTimer()
    done(lines, cacheIt)
  }
  function onTimeout(): void {
    // A grammar ran away on this block (or the worker hangs): never try it again, and
    // give the next block a fresh worker.
    kill()
    end(null, true)
  }
  const onMessage = (event: MessageEvent<HighlightReply>): void => {
    const reply = event.data
    if (!current || reply.id !== current.id) return
    startFailures = 0
    if (reply.kind === 'started') arm(timeoutMs)
    else if (reply.kind === 'done') {
      end(reply.lines && matches(reply.lines, current.code) ? reply.lines : null, true)
    } else end(null, true)
  }
  const onError = (): void => {
    // The worker could not start (or crashed): drop it; after a few in a row, give up.
    kill()
    if (++startFailures >= MAX_START_FAILURES) unavailable = true
    end(null, false)
  }
  const ensureWorker = (): WorkerLike | null => {
    if (worker || unavailable) return worker
    try {
      worker = options.createWorker()
    } catch {
      worker = null
    }
    if (!worker) {
      unavailable = true
      return null
    }
    worker.onmessage = onMessage
    worker.onerror = onError
    return worker
  }
  return {
    get unavailable(): boolean {
      return unavailable
    },
    /** false: there is no worker (the job was not started) */
    run(job: Job): boolean {
      const w = ensureWorker()
      if (!w) return false
      current = job
      arm(loadTimeoutMs)
      try {
        w.postMessage({ id: job.id, code: job.code, lang: job.lang })
      } catch {
        onError()
      }
      return true
    },
    stop: kill,
  }
}

export function createHighlightClient(options: HighlightClientOptions): HighlightClient {
  const cache = lru<HighlightLines | null>(options.cacheSize ?? 64)
  const pending = new Map<string, Promise<HighlightLines | null>>()
  const queue: Job[] = []
  let current: Job | null = null
  let nextId = 1
  let disposed = false
  // answers wait for the next frame, and go out together
  const handOver = new FrameBatcher<() => void>(
    (answers) => answers.forEach((answer) => answer()),
    options.scheduler ??
      (typeof requestAnimationFrame === 'function' ? animationFrames : immediate),
  )

  const runner = createRunner(options, (lines, cacheIt) => {
    const job = current
    current = null
    if (job) {
      if (cacheIt) cache.set(job.key, lines)
      pending.delete(job.key)
      handOver.push(() => job.resolve(lines))
    }
    pump()
  })

  function pump(): void {
    if (current || disposed) return
    const job = queue.shift()
    if (!job) return
    current = job
    if (!runner.run(job)) {
      current = null
      pending.delete(job.key)
      job.resolve(null)
      pump()
    }
  }

  return {
    peek(code, lang) {
      const key = keyOf(code, lang)
      if (key === null) return null
      if (!cache.has(key)) return undefined
      const lines = cache.get(key) ?? null
      cache.set(key, lines)
      return lines
    },
    highlight(code, lang) {
      const key = keyOf(code, lang)
      if (key === null || runner.unavailable || disposed) return Promise.resolve(null)
      if (cache.has(key)) return Promise.resolve(cache.get(key) ?? null)
      const inFlight = pending.get(key)
      if (inFlight) return inFlight
      const promise = new Promise<HighlightLines | null>((resolve) => {
        queue.push({ id: nextId++, key, code, lang, resolve })
      })
      pending.set(key, promise)
      pump()
      return promise
    },
    dispose() {
      disposed = true
      runner.stop()
      const jobs = current ? [current, ...queue] : [...queue]
      current = null
      queue.length = 0
      pending.clear()
      for (const job of jobs) job.resolve(null)
    },
  }
}

let shared: HighlightClient | null = null

/** The app's one highlight client, with the real worker (created on the first block). */
export function getHighlightClient(): HighlightClient {
  shared ??= createHighlightClient({
    createWorker: () =>
      typeof Worker === 'undefined'
        ? null
        : (new Worker(new URL('./highlight.worker.ts', import.meta.url), {
            type: 'module',
            name: 'cairn-highlight',
          }) as unknown as WorkerLike),
  })
  return shared
}
