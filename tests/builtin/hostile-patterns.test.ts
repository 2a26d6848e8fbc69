/**
 * Patterns from the model or an MCP server cannot stall the process: search_files' regexes
 * and globs and schema `pattern`s run on RE2, and a long search keeps the event loop turning
 * and stops when cancelled. Checked by event order (a timer keeps ticking while the search
 * runs), never by elapsed time.
 */
import { describe, expect, it } from 'vitest'
import { checkToolArguments } from '../../src-main/core/agent/tool-args'
import { linearRegExp } from '../../src-main/core/linear-regex'
import { harness } from './harness'

const EVIL = '^(a+)+$'
/** a line `^(a+)+$` backtracks on exponentially in V8 */
const evilLine = (n: number): string => `${'a'.repeat(n)}!`

function bigTree(h: ReturnType<typeof harness>, files: number): void {
  const line = evilLine(3999)
  const body = Array.from({ length: 1000 }, () => line).join('\n')
  for (let i = 0; i < files; i++) h.put(`big/f${i}.txt`, body)
}

/** Counts timer ticks; `during` is how many fell between start() and stop(). */
function ticker(): { start(): void; stop(): number; count(): number } {
  let n = 0
  let timer: NodeJS.Timeout | undefined
  return {
    start: () => void (timer = setInterval(() => n++, 1)),
    stop: () => {
      clearInterval(timer)
      return n
    },
    count: () => n,
  }
}

describe('hostile patterns', () => {
  it('a catastrophic regex over big files returns, and the event loop keeps turning', async () => {
    const h = harness({ limits: { maxFileBytes: 8 * 1024 * 1024 } })
    bigTree(h, 4)
    h.put('short.txt', `${evilLine(40)}\naaaa\n`)
    const t = ticker()
    t.start()
    const r = await h.call('search_files', { text: EVIL, regex: true })
    const ticks = t.stop()
    expect(r.isError).toBe(false)
    expect(r.text.split('\n')).toEqual(['short.txt:2: aaaa'])
    expect(ticks).toBeGreaterThanOrEqual(2)
  }, 120_000)

  it('a long search stops when the call is cancelled', async () => {
    const h = harness({ limits: { maxFileBytes: 8 * 1024 * 1024 } })
    bigTree(h, 12)
    const ac = new AbortController()
    const t = ticker()
    t.start()
    const watcher = setInterval(() => {
      if (t.count() >= 3) ac.abort(new Error('stopped by the user'))
    }, 1)
    const outcome = await h.call('search_files', { text: EVIL, regex: true }, ac.signal).then(
      () => 'finished',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    )
    clearInterval(watcher)
    t.stop()
    expect(outcome).toBe('stopped by the user')
  }, 120_000)

  it('a glob with many stars against a long name does not backtrack', async () => {
    const h = harness()
    h.put(`${'a'.repeat(200)}.txt`, 'x')
    h.put('abc', 'x')
    const r = await h.call('search_files', { pattern: `${'*a'.repeat(14)}*c` })
    expect(r.text).toMatch(/^No results/)
    const groups = await h.call('search_files', { pattern: '(a+)+c' })
    expect(groups.text).toMatch(/^No results/)
    const ok = await h.call('search_files', { pattern: '*b*' })
    expect(ok.text).toBe('abc')
  }, 120_000)

  it('a regex RE2 cannot run is refused with a reason, not run on the backtracking engine', async () => {
    const h = harness()
    h.put('a.txt', 'aa\n')
    const r = await h.call('search_files', { text: '(a)\\1', regex: true })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('backreferences')
    expect(() => linearRegExp('(?<=a)b')).toThrow(SyntaxError)
  })

  it('compiled patterns are freed: many searches do not fill the engine', () => {
    // the engine's heap is fixed (16 MB); without freeing, this ran out before 20 000
    for (let i = 0; i < 30_000; i++) {
      const re = linearRegExp(`foo(bar|baz)+[a-z]{2,5}${i}`)
      expect(re.test(`xx foobarbazab${i}`)).toBe(true)
      re.dispose()
    }
  }, 120_000)

  it('an input too long for the engine is not matched, and does not break it', () => {
    const re = linearRegExp('^a+$')
    expect(re.test('a'.repeat(4_000_000))).toBe(false)
    expect(re.test('aaa')).toBe(true)
    re.dispose()
  })

  it("an MCP schema's pattern is checked in linear time", () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', pattern: EVIL } },
    }
    const bad = checkToolArguments(JSON.stringify({ name: evilLine(5000) }), schema)
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.problem).toContain('pattern')
    const good = checkToolArguments(JSON.stringify({ name: 'aaaa' }), schema)
    expect(good.ok).toBe(true)
  })
})
