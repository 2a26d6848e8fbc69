import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createHighlightClient,
  getHighlightClient,
  type WorkerLike,
} from '../../src-renderer/src/ui/markdown/highlight-client'
import type {
  HighlightReply,
  HighlightRequest,
} from '../../src-renderer/src/ui/markdown/highlight-protocol'

/** A worker the test drives by hand. */
class FakeWorker implements WorkerLike {
  static all: FakeWorker[] = []
  onmessage: ((event: MessageEvent<HighlightReply>) => void) | null = null
  onerror: ((event: Event) => void) | null = null
  requests: HighlightRequest[] = []
  terminated = false
  constructor() {
    FakeWorker.all.push(this)
  }
  postMessage(message: HighlightRequest): void {
    this.requests.push(message)
  }
  terminate(): void {
    this.terminated = true
  }
  reply(reply: HighlightReply): void {
    this.onmessage?.({ data: reply } as MessageEvent<HighlightReply>)
  }
  /** Answers the last request with the code as one token. */
  answer(): void {
    const req = this.requests[this.requests.length - 1] as HighlightRequest
    this.reply({ id: req.id, kind: 'started' })
    this.reply({
      id: req.id,
      kind: 'done',
      lines: req.code.split('\n').map((l) => [{ content: l, light: '#111111', dark: '#eeeeee' }]),
    })
  }
}

/** answers handed over at once (the frames are tested on their own) */
const atOnce = {
  request(cb: () => void) {
    cb()
    return () => {}
  },
}

const client = (timeoutMs = 2_000) =>
  createHighlightClient({
    createWorker: () => new FakeWorker(),
    timeoutMs,
    loadTimeoutMs: 10_000,
    scheduler: atOnce,
  })

beforeEach(() => {
  FakeWorker.all = []
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('highlight client', () => {
  it('asks the worker once per block and caches the answer', async () => {
    const c = client()
    const p1 = c.highlight('let a = 1', 'ts')
    const p2 = c.highlight('let a = 1', 'typescript') // same language, same code
    expect(FakeWorker.all).toHaveLength(1)
    const w = FakeWorker.all[0] as FakeWorker
    expect(w.requests).toHaveLength(1)
    expect(c.peek('let a = 1', 'ts')).toBeUndefined()
    w.answer()
    const lines = await p1
    expect(lines?.[0]?.[0]?.light).toBe('#111111')
    expect(await p2).toBe(lines)
    expect(c.peek('let a = 1', 'ts')).toBe(lines)
    expect(await c.highlight('let a = 1', 'ts')).toBe(lines)
    expect(w.requests).toHaveLength(1)
  })

  it('does not bother the worker for unknown languages or huge blocks', async () => {
    const c = client()
    expect(await c.highlight('x', 'klingon')).toBeNull()
    expect(await c.highlight('x', '')).toBeNull()
    expect(await c.highlight('x\n'.repeat(3_001), 'ts')).toBeNull()
    expect(c.peek('x', 'klingon')).toBeNull()
    expect(FakeWorker.all).toHaveLength(0)
  })

  it('sends one block at a time', async () => {
    const c = client()
    const a = c.highlight('a', 'ts')
    const b = c.highlight('b', 'ts')
    const w = FakeWorker.all[0] as FakeWorker
    expect(w.requests.map((r) => r.code)).toEqual(['a'])
    w.answer()
    await a
    expect(w.requests.map((r) => r.code)).toEqual(['a', 'b'])
    w.answer()
    expect((await b)?.[0]?.[0]?.content).toBe('b')
  })

  it('shows a block plain when tokenizing it takes over 2 s, and starts a fresh worker', async () => {
    const c = client(2_000)
    const slow = c.highlight('while (true) {}', 'ts')
    const next = c.highlight('let ok = 1', 'ts')
    const w1 = FakeWorker.all[0] as FakeWorker
    const first = w1.requests[0] as HighlightRequest
    w1.reply({ id: first.id, kind: 'started' }) // grammar loaded; tokenizing never ends
    vi.advanceTimersByTime(1_999)
    expect(w1.terminated).toBe(false)
    vi.advanceTimersByTime(2)
    expect(await slow).toBeNull()
    expect(w1.terminated).toBe(true)
    // the pathological block is not tried again
    expect(c.peek('while (true) {}', 'ts')).toBeNull()
    // the next block goes to a new worker
    expect(FakeWorker.all).toHaveLength(2)
    const w2 = FakeWorker.all[1] as FakeWorker
    expect(w2.requests.map((r) => r.code)).toEqual(['let ok = 1'])
    w2.answer()
    expect(await next).not.toBeNull()
  })

  it('ignores a late answer from a worker it gave up on', async () => {
    const c = client(2_000)
    const slow = c.highlight('slow', 'ts')
    const w1 = FakeWorker.all[0] as FakeWorker
    w1.reply({ id: (w1.requests[0] as HighlightRequest).id, kind: 'started' })
    vi.advanceTimersByTime(2_001)
    expect(await slow).toBeNull()
    w1.answer()
    expect(c.peek('slow', 'ts')).toBeNull()
  })

  it('rejects tokens that do not spell out the code', async () => {
    const c = client()
    const p = c.highlight('abc', 'ts')
    const w = FakeWorker.all[0] as FakeWorker
    const id = (w.requests[0] as HighlightRequest).id
    w.reply({ id, kind: 'done', lines: [[{ content: '<img src=x>' }]] })
    expect(await p).toBeNull()
  })

  it('shows blocks plain when there is no Worker, or it cannot start', async () => {
    const none = createHighlightClient({ createWorker: () => null })
    expect(await none.highlight('let a = 1', 'ts')).toBeNull()
    const throwing = createHighlightClient({
      createWorker: () => {
        throw new Error('blocked by CSP')
      },
    })
    expect(await throwing.highlight('let a = 1', 'ts')).toBeNull()
    // the shared client under Node (no Worker global) also just says null
    expect(typeof Worker).toBe('undefined')
    expect(await getHighlightClient().highlight('let a = 1', 'ts')).toBeNull()
  })

  it('gives up on workers after a few fail to start in a row', async () => {
    const c = client()
    for (let i = 0; i < 3; i++) {
      const p = c.highlight(`code ${i}`, 'ts')
      ;(FakeWorker.all[i] as FakeWorker).onerror?.(new Event('error'))
      expect(await p).toBeNull()
    }
    expect(await c.highlight('code 9', 'ts')).toBeNull()
    expect(FakeWorker.all).toHaveLength(3)
  })

  it('hands answers over once per frame, all those that came meanwhile together', async () => {
    const frames: (() => void)[] = []
    const c = createHighlightClient({
      createWorker: () => new FakeWorker(),
      scheduler: {
        request(cb) {
          frames.push(cb)
          return () => {}
        },
      },
    })
    const got: string[] = []
    const a = c.highlight('a', 'ts').then(() => got.push('a'))
    const b = c.highlight('b', 'ts').then(() => got.push('b'))
    const w = FakeWorker.all[0] as FakeWorker
    w.answer()
    w.answer() // the worker goes on with the next block meanwhile
    await Promise.resolve()
    expect(got).toEqual([])
    expect(frames).toHaveLength(1)
    frames.shift()!()
    await Promise.all([a, b])
    expect(got).toEqual(['a', 'b'])
    // cached at once: a block rendered before the frame finds its tokens
    expect(c.peek('b', 'ts')).not.toBeUndefined()
  })

  it('keeps only the most recent results', async () => {
    const c = createHighlightClient({
      createWorker: () => new FakeWorker(),
      cacheSize: 2,
      scheduler: atOnce,
    })
    for (const code of ['a', 'b', 'c']) {
      const p = c.highlight(code, 'ts')
      ;(FakeWorker.all[0] as FakeWorker).answer()
      await p
    }
    expect(c.peek('a', 'ts')).toBeUndefined()
    expect(c.peek('b', 'ts')).not.toBeUndefined()
    expect(c.peek('c', 'ts')).not.toBeUndefined()
  })
})
