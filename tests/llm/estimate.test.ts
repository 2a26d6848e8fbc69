import { describe, expect, it } from 'vitest'
import { fitToContext } from '../../src-main/core/agent/context-fit'
import {
  estimateRequestTokens,
  messageChars,
  NON_TEXT_PART_TOKENS,
} from '../../src-main/core/llm/estimate'
import type { WireMessage } from '../../src-main/core/llm/types'

const image = (bytes: number): WireMessage => ({
  role: 'user',
  content: [
    { type: 'text', text: 'look' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(bytes)}` } },
  ],
})

describe('the one token estimate', () => {
  it('counts an image by a fixed cost, whatever the length of its base64 data', () => {
    const small = estimateRequestTokens([image(100)])
    const large = estimateRequestTokens([image(400_000)])
    expect(small).toBe(large)
    expect(small).toBe(Math.ceil(4 / 4) + NON_TEXT_PART_TOKENS)
  })

  it('counts text, tool calls, reasoning and tool definitions', () => {
    const messages: WireMessage[] = [
      { role: 'user', content: 'x'.repeat(40) },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'r'.repeat(8),
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'read', arguments: '{"a":1}' } }],
      },
    ]
    expect(messageChars(messages)).toBe(40 + 8 + 4 + 7)
    const tool = { type: 'function' as const, function: { name: 't', parameters: {} } }
    expect(estimateRequestTokens(messages, [tool])).toBe(
      Math.ceil((59 + JSON.stringify(tool).length) / 4),
    )
  })

  it('is the estimate the context fitting uses: an image does not push a request out', () => {
    const history = [image(2_000_000), { role: 'assistant', content: 'seen' } as WireMessage]
    const { messages, diagnostics } = fitToContext(history, [], { maxTokens: 2_000 })
    expect(diagnostics.omittedMessages).toBe(0)
    expect(diagnostics.estimatedTokens).toBe(estimateRequestTokens(history))
    expect(messages).toEqual(history)
  })
})
