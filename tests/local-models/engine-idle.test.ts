/**
 * The runtime's engine on the tiny real model: it unloads the model after the idle time
 * (localModels.idleMinutes) and loads it again for the next answer.
 */
import { describe, expect, it } from 'vitest'
import { LocalEngine } from '../../src-main/local-runtime/engine'
import { TINY_MODEL } from './support'

function answer(engine: LocalEngine) {
  return engine.generate({
    modelPath: TINY_MODEL,
    history: [{ type: 'user', text: 'Once upon a time' }],
    functions: undefined,
    maxTokens: 8,
    seed: 1,
    signal: new AbortController().signal,
    onText: () => undefined,
    onReasoning: () => undefined,
  })
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

describe('the local runtime engine', () => {
  it('unloads the model after the idle time and loads it again for the next answer', async () => {
    const lines: string[] = []
    const engine = new LocalEngine({
      idleMs: 1_500,
      threads: 1,
      maxContext: 512,
      log: (l) => lines.push(l),
    })
    try {
      const first = await answer(engine)
      expect(first.completionTokens).toBeGreaterThan(0)
      expect(lines.filter((l) => l.startsWith('loaded '))).toHaveLength(1)
      // not before the idle time…
      expect(lines.some((l) => l.startsWith('unloaded '))).toBe(false)
      // …but once it has passed
      expect(await until(() => lines.some((l) => l.startsWith('unloaded ')), 10_000)).toBe(true)
      const second = await answer(engine)
      expect(second.completionTokens).toBeGreaterThan(0)
      expect(lines.filter((l) => l.startsWith('loaded '))).toHaveLength(2)
    } finally {
      await engine.close()
    }
  }, 60_000)

  it('keeps the model loaded while answers come within the idle time', async () => {
    const lines: string[] = []
    const engine = new LocalEngine({
      idleMs: 5_000,
      threads: 1,
      maxContext: 512,
      log: (l) => lines.push(l),
    })
    try {
      await answer(engine)
      await answer(engine)
      expect(lines.filter((l) => l.startsWith('loaded '))).toHaveLength(1)
      expect(lines.some((l) => l.startsWith('unloaded '))).toBe(false)
    } finally {
      await engine.close()
    }
  }, 60_000)
})
