import { describe, expect, it } from 'vitest'
import { textRuns, type TextRuns } from '../../src-renderer/src/features/chat/text-runs'

const LINES = Array.from({ length: 400 }, (_, i) => `line ${i} of the reasoning, thought over`)
const TEXT = LINES.join('\n')

describe('a long text in runs', () => {
  it('streamed (told it grows) cuts the same runs as the whole text, keeping the finished ones', () => {
    let state: TextRuns | null = null
    for (let pos = 13; pos < TEXT.length + 13; pos += 13) {
      const before: TextRuns | null = state
      state = textRuns(state, TEXT.slice(0, pos), 200, true)
      const whole = textRuns(null, TEXT.slice(0, pos), 200)
      expect(state.runs).toEqual(whole.runs)
      expect(state.openStart).toBe(whole.openStart)
      before?.runs.forEach((run, i) => expect(state!.runs[i]).toBe(run))
    }
    expect(state!.runs.length).toBeGreaterThan(50)
  })

  it('told it grows, starts afresh when the ends of the text before say it was replaced', () => {
    const a = textRuns(null, TEXT.slice(0, 5000), 200)
    const changedEnd = `${TEXT.slice(0, 4990)}CHANGED!!!${TEXT.slice(5000, 6000)}`
    const b = textRuns(a, changedEnd, 200, true)
    expect(b.runs).toEqual(textRuns(null, changedEnd, 200).runs)
    const changedStart = `X${TEXT.slice(1, 6000)}`
    const c = textRuns(a, changedStart, 200, true)
    expect(c.runs[0]?.startsWith('X')).toBe(true)
  })
})
