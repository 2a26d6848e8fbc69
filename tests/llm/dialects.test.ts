/**
 * Every stream dialect normalized into one stream: reasoning fields, inline <think> tags,
 * OpenRouter reasoning_details, fragmented / interleaved / Ollama-style tool calls.
 */
import { describe, expect, it } from 'vitest'
import type { StreamDelta } from '../../src-main/core/llm/types'
import { reasoningReply, textReply, toolCallsReply } from '../support/openai-server'
import type { Chunk, SseItem } from '../support/openai-server'
import { request, signal, useServer } from './harness'

function delta(d: Record<string, unknown>, finish: string | null = null): Chunk {
  return { choices: [{ index: 0, delta: d, finish_reason: finish }] }
}

describe('reasoning dialects', () => {
  const ctx = useServer()

  async function run(): Promise<{
    result: Awaited<ReturnType<typeof ctx.client.streamChat>>
    deltas: StreamDelta[]
  }> {
    const deltas: StreamDelta[] = []
    const result = await ctx.client.streamChat(request(), {
      signal: signal(),
      onDelta: (d) => deltas.push(d),
    })
    return { result, deltas }
  }

  const join = (deltas: StreamDelta[], type: StreamDelta['type']): string =>
    deltas
      .filter((d) => d.type === type)
      .map((d) => d.text)
      .join('')

  for (const style of ['reasoning_content', 'reasoning'] as const) {
    it(`reads delta.${style}`, async () => {
      ctx.server.enqueue(reasoningReply('Let me think about it.', 'The answer is 4.', { style }))
      const { result, deltas } = await run()
      expect(result.reasoning).toBe('Let me think about it.')
      expect(result.content).toBe('The answer is 4.')
      expect(join(deltas, 'reasoning')).toBe('Let me think about it.')
      expect(join(deltas, 'text')).toBe('The answer is 4.')
      // reasoning streams before the answer
      expect(deltas[0]?.type).toBe('reasoning')
      expect(deltas[deltas.length - 1]?.type).toBe('text')
    })
  }

  for (const chunkSize of [1, 3, 4, 5, 100]) {
    it(`splits <think> tags out of the content (chunks of ${chunkSize}, tags split across chunks)`, async () => {
      ctx.server.enqueue(
        reasoningReply('\nPlan: add 2 and 2 < 5.\n', 'It is 4.', {
          style: 'think-tags',
          chunkSize,
        }),
      )
      const { result, deltas } = await run()
      expect(result.reasoning).toBe('Plan: add 2 and 2 < 5.')
      expect(result.content).toBe('It is 4.')
      expect(join(deltas, 'text')).toBe('It is 4.')
      expect(join(deltas, 'text')).not.toContain('<')
      expect(join(deltas, 'reasoning')).not.toContain('think>')
    })
  }

  it('splits <think> when the opening tag is cut as `<thi` + `nk>` after leading whitespace', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        delta({ content: '\n ' }),
        delta({ content: '<thi' }),
        delta({ content: 'nk>step one' }),
        delta({ content: '</th' }),
        delta({ content: 'ink>\n\nDone.' }, 'stop'),
      ],
    })
    const { result } = await run()
    expect(result.reasoning).toBe('step one')
    expect(result.content).toBe('Done.')
  })

  it('treats a <think> that is not at the start as plain content', async () => {
    const text = 'Use the <think> tag like <think>this</think>, then answer.'
    ctx.server.enqueue(textReply(text, { chunkSize: 3 }))
    const { result, deltas } = await run()
    expect(result.content).toBe(text)
    expect(result.reasoning).toBeNull()
    expect(deltas.every((d) => d.type === 'text')).toBe(true)
  })

  it('keeps a content that merely starts like the tag', async () => {
    ctx.server.enqueue(textReply('<thing> is not a tag', { chunkSize: 2 }))
    const { result } = await run()
    expect(result.content).toBe('<thing> is not a tag')
    expect(result.reasoning).toBeNull()
  })

  it('keeps OpenRouter reasoning_details as providerExtras, merged by index', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        delta({
          reasoning: 'Let',
          reasoning_details: [
            { type: 'reasoning.text', text: 'Let', index: 0, format: 'anthropic-claude-v1' },
          ],
        }),
        delta({
          reasoning: ' me',
          reasoning_details: [{ type: 'reasoning.text', text: ' me', index: 0 }],
        }),
        delta({
          reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'sig-1', index: 0 }],
        }),
        delta({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'enc', index: 1 }] }),
        delta({ content: 'Hi' }, 'stop'),
      ],
    })
    const { result } = await run()
    expect(result.reasoning).toBe('Let me')
    expect(result.content).toBe('Hi')
    expect(result.providerExtras).toEqual({
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'Let me',
          index: 0,
          format: 'anthropic-claude-v1',
          signature: 'sig-1',
        },
        { type: 'reasoning.encrypted', data: 'enc', index: 1 },
      ],
    })
  })
})

describe('tool calls', () => {
  const ctx = useServer()

  const run = (): ReturnType<typeof ctx.client.streamChat> =>
    ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} })

  it('accumulates fragmented calls (id and name on the first fragment, arguments split anywhere)', async () => {
    const args = JSON.stringify({ path: '/tmp/a.txt', content: 'line 1\nline 2', mode: 420 })
    ctx.server.enqueue(
      toolCallsReply([{ id: 'call_abc', name: 'write_file', arguments: args }], {
        fragmentSize: 3,
        content: 'Writing it.',
      }),
    )
    const result = await run()
    expect(result.content).toBe('Writing it.')
    expect(result.toolCalls).toEqual([{ id: 'call_abc', name: 'write_file', arguments: args }])
    expect(result.finishReason).toBe('tool_calls')
  })

  it('keeps arguments intact when a fragment ends inside a surrogate pair and SSE bytes split inside a UTF-8 character', async () => {
    const args = JSON.stringify({ text: 'héllo 😀 wörld — 日本語 🎉 ünïcödé' })
    const reply = toolCallsReply([{ id: 'call_u', name: 'say', arguments: args }], {
      fragmentSize: 7,
      splitMultibyte: true,
    })
    // the test is only meaningful if the server really splits some writes inside a character
    const splits =
      reply.type === 'sse' ? reply.items.filter((i: SseItem) => 'split' in i).length : 0
    expect(splits).toBeGreaterThan(2)
    ctx.server.enqueue(reply)
    const result = await run()
    expect(result.toolCalls).toHaveLength(1)
    expect(result.toolCalls[0]?.arguments).toBe(args)
    expect(JSON.parse(result.toolCalls[0]?.arguments ?? '')).toEqual({
      text: 'héllo 😀 wörld — 日本語 🎉 ünïcödé',
    })
  })

  it('accumulates several calls interleaved by index, in index order', async () => {
    const calls = [
      { id: 'call_1', name: 'read_file', arguments: JSON.stringify({ path: 'a.txt' }) },
      { id: 'call_2', name: 'list_dir', arguments: JSON.stringify({ path: '.', recursive: true }) },
      {
        id: 'call_3',
        name: 'search',
        arguments: JSON.stringify({ query: 'needle in a haystack' }),
      },
    ]
    ctx.server.enqueue(toolCallsReply(calls, { interleave: true, fragmentSize: 4 }))
    const result = await run()
    expect(result.toolCalls).toEqual(calls)
  })

  it('takes Ollama calls complete in one chunk, without index, with arguments as an object', async () => {
    ctx.server.enqueue(
      toolCallsReply(
        [
          { id: 'call_o1', name: 'get_weather', arguments: '{"city":"Paris","days":3}' },
          { id: 'call_o2', name: 'get_time', arguments: '{"tz":"Europe/Paris"}' },
        ],
        { ollama: true, finishReason: 'stop' },
      ),
    )
    const result = await run()
    expect(result.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments) as unknown])).toEqual(
      [
        ['call_o1', 'get_weather', { city: 'Paris', days: 3 }],
        ['call_o2', 'get_time', { tz: 'Europe/Paris' }],
      ],
    )
    expect(typeof result.toolCalls[0]?.arguments).toBe('string')
  })

  it('takes a complete call in one chunk with index and string arguments', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        delta({
          tool_calls: [
            {
              index: 0,
              id: 'call_x',
              type: 'function',
              function: { name: 'run', arguments: '{"cmd":"ls"}' },
            },
          ],
        }),
        delta({}, 'tool_calls'),
      ],
    })
    const result = await run()
    expect(result.toolCalls).toEqual([{ id: 'call_x', name: 'run', arguments: '{"cmd":"ls"}' }])
  })

  it('returns tool calls when finish_reason is "stop"', async () => {
    ctx.server.enqueue(
      toolCallsReply(
        [
          { id: 'call_a', name: 'a', arguments: '{}' },
          { id: 'call_b', name: 'b', arguments: '{"x":1}' },
        ],
        { finishReason: 'stop' },
      ),
    )
    const result = await run()
    expect(result.finishReason).toBe('stop')
    expect(result.toolCalls.map((c) => c.name)).toEqual(['a', 'b'])
  })

  it('generates distinct call_ ids when the server sends none', async () => {
    ctx.server.enqueue(
      toolCallsReply([
        { name: 'a', arguments: '{"n":1}' },
        { name: 'b', arguments: '{"n":2}' },
      ]),
    )
    const result = await run()
    const ids = result.toolCalls.map((c) => c.id)
    expect(ids).toHaveLength(2)
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{24}$/)
    expect(ids[0]).not.toBe(ids[1])
    expect(result.toolCalls.map((c) => c.arguments)).toEqual(['{"n":1}', '{"n":2}'])
  })

  it('keeps reasoning and content next to tool calls, and estimates output from all three', async () => {
    ctx.server.enqueue(
      toolCallsReply([{ id: 'call_r', name: 'look', arguments: '{"q":"abcdefgh"}' }], {
        reasoning: 'I should look.',
        content: 'Looking.',
        usage: null,
      }),
    )
    const result = await run()
    expect(result.reasoning).toBe('I should look.')
    expect(result.content).toBe('Looking.')
    expect(result.toolCalls[0]?.name).toBe('look')
    expect(result.usage.estimated).toBe(true)
    // 14 reasoning + 8 content + 16 arguments = 38 chars → 10 tokens
    expect(result.usage.outputTokens).toBe(10)
  })
})
