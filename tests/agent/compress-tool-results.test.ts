import { describe, expect, it } from 'vitest'
import { compressOldToolResults } from '../../src-main/core/agent/compress-tool-results'
import type { WireMessage } from '../../src-main/core/llm/types'

function turn(i: number, tool: string, chars: number): WireMessage[] {
  return [
    { role: 'user', content: `question ${i}` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: tool, arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: `c${i}`, content: `${i}`.padEnd(chars, 'r') },
    { role: 'assistant', content: `answer ${i}` },
  ]
}

const history: WireMessage[] = [
  { role: 'system', content: 'sys' },
  ...Array.from({ length: 14 }, (_, i) => turn(i, i === 1 ? 'login' : 'read', 1000)).flat(),
]

describe('old tool results in the request view', () => {
  it('cuts results older than the last 10 turns to 200 characters, with a marker', () => {
    const frozen = JSON.stringify(history)
    const { messages, compressed } = compressOldToolResults(history)
    expect(compressed).toBe(4)
    const results = messages.filter((m) => m.role === 'tool').map((m) => String(m['content']))
    for (const r of results.slice(0, 4)) {
      expect(r).toMatch(/^\dr{199}\n\[older tool output cut from 1000 to 200 characters/)
    }
    expect(results.slice(4).every((r) => r.length === 1000)).toBe(true)
    expect(messages).toHaveLength(history.length)
    expect(JSON.stringify(history)).toBe(frozen) // the input is not changed
  })

  it('never cuts the results of tools marked never-compress', () => {
    const { messages, compressed } = compressOldToolResults(history, { neverCompress: ['login'] })
    expect(compressed).toBe(3)
    const login = messages.find((m) => m['tool_call_id'] === 'c1')
    expect(String(login?.['content'])).toHaveLength(1000)
  })

  it('keeps as many recent turns whole as asked, and short results as they are', () => {
    expect(compressOldToolResults(history, { keepTurns: 2 }).compressed).toBe(12)
    expect(compressOldToolResults(history, { keepTurns: 20 }).compressed).toBe(0)
    expect(compressOldToolResults(history, { keepTurns: 2, keepChars: 1000 }).compressed).toBe(0)
  })
})
