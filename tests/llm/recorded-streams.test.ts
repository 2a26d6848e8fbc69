/**
 * Every stream in tests/fixtures/streams, replayed over real HTTP through the real `openai` SDK,
 * is read as the recording itself says: the same text, reasoning, tool calls, finish reason and
 * usage, or the error it reports.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LlmError } from '../../src-main/core/llm/types'
import type { StreamDelta } from '../../src-main/core/llm/types'
import { request, signal, useServer } from './harness'
import { STREAMS_DIR, expectedOf, listRecordings, replay } from './recordings'

const recordings = listRecordings()

describe('the recorded-stream corpus', () => {
  it('has 40+ streams from 10+ providers, each listed with its source in the README', () => {
    const readme = readFileSync(join(STREAMS_DIR, 'README.md'), 'utf8')
    // `compat-…` files are not from one provider
    const providers = new Set(
      recordings.map((r) => r.file.split('-')[0]).filter((p) => p !== 'compat'),
    )
    expect(recordings.length).toBeGreaterThanOrEqual(40)
    expect(providers.size).toBeGreaterThanOrEqual(10)
    for (const r of recordings) expect(readme, r.file).toContain(`| ${r.file} |`)
  })
})

describe('every recorded stream is read as recorded', () => {
  const ctx = useServer({ strict: false })

  for (const rec of recordings) {
    it(rec.file, async () => {
      const want = expectedOf(rec)
      ctx.server.enqueue(replay(rec))
      const deltas: StreamDelta[] = []
      const run = ctx.client.streamChat(request(), {
        signal: signal(),
        onDelta: (d) => deltas.push(d),
      })
      const shown = (type: StreamDelta['type']): string =>
        deltas
          .filter((d) => d.type === type)
          .map((d) => d.text)
          .join('')

      if (want.error !== null) {
        const err = await run.then(
          () => null,
          (e: unknown) => e,
        )
        expect(err).toBeInstanceOf(LlmError)
        expect((err as LlmError).message).toContain(want.error)
        expect((err as LlmError).partial?.content ?? '').toBe(want.text)
        return
      }
      if (want.finishReason === null && !want.done) {
        await expect(run).rejects.toMatchObject({ code: 'interrupted' })
        return
      }
      const result = await run
      expect(result.content).toBe(want.text)
      expect(shown('text')).toBe(want.text)
      expect(result.reasoning ?? '').toBe(want.reasoning.trim() === '' ? '' : result.reasoning)
      expect((result.reasoning ?? '').trim()).toBe(want.reasoning.trim())
      expect(shown('reasoning').trim()).toBe(want.reasoning.trim())
      expect(
        result.toolCalls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) })),
      ).toEqual(want.toolCalls)
      expect(result.finishReason).toBe(
        want.finishReason ?? (want.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      )
      if (want.usage) {
        expect(result.usage).toMatchObject({
          inputTokens: want.usage.prompt,
          outputTokens: want.usage.completion,
          estimated: false,
        })
      } else {
        expect(result.usage.estimated).toBe(true)
      }
    })
  }
})
