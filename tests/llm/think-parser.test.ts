/**
 * The incremental <think> parser on every way of cutting its input into pieces.
 */
import { describe, expect, it } from 'vitest'
import { ThinkTagParser } from '../../src-main/core/llm/think-parser'

function parse(pieces: string[]): { text: string; reasoning: string } {
  let text = ''
  let reasoning = ''
  const parser = new ThinkTagParser({
    text: (s) => {
      expect(s).not.toBe('')
      text += s
    },
    reasoning: (s) => {
      expect(s).not.toBe('')
      reasoning += s
    },
  })
  for (const p of pieces) parser.push(p)
  parser.flush()
  return { text, reasoning }
}

/** Every split of `s` into two pieces, and into three pieces. */
function splits(s: string): string[][] {
  const out: string[][] = [[s], s.split('')]
  for (let i = 1; i < s.length; i++) {
    out.push([s.slice(0, i), s.slice(i)])
    for (let j = i + 1; j < s.length; j++) out.push([s.slice(0, i), s.slice(i, j), s.slice(j)])
  }
  return out
}

const cases: [string, { text: string; reasoning: string }][] = [
  ['<think>a<b</think>answer', { text: 'answer', reasoning: 'a<b' }],
  [
    '  \n<think>\nplan </thin k</think>\n\nok <think>x</think>',
    { text: 'ok <think>x</think>', reasoning: 'plan </thin k\n' },
  ],
  ['hello <think>no</think>', { text: 'hello <think>no</think>', reasoning: '' }],
  ['<thinking>', { text: '<thinking>', reasoning: '' }],
  ['<thi', { text: '<thi', reasoning: '' }],
  ['<think>unfinished </thi', { text: '', reasoning: 'unfinished </thi' }],
]

describe('ThinkTagParser', () => {
  for (const [input, expected] of cases) {
    it(`parses ${JSON.stringify(input)} the same however it is cut`, () => {
      for (const pieces of splits(input)) {
        const got = parse(pieces)
        // trailing whitespace of the reasoning is trimmed by the normalizer, not the parser
        expect(
          { text: got.text, reasoning: got.reasoning.trimEnd() },
          JSON.stringify(pieces),
        ).toEqual({
          text: expected.text,
          reasoning: expected.reasoning.trimEnd(),
        })
      }
    })
  }
})
