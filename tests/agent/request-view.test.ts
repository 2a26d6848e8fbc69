import { describe, expect, it } from 'vitest'
import { buildRequestView } from '../../src-main/core/agent/request-view'
import { messageBuilder } from '../support/stored-messages'

const msg = messageBuilder()

const A = { provider: 'http://a/v1', model: 'deepseek-reasoner', systemPrompt: null }

describe('the request-time view', () => {
  const history = [
    msg({ role: 'user', content: 'hi' }),
    msg({
      role: 'assistant',
      content: 'Hello',
      reasoning: 'greet back',
      provider: A.provider,
      model: A.model,
    }),
    msg({ role: 'user', content: 'list files' }),
    msg({
      role: 'assistant',
      content: '',
      reasoning: 'I should call ls',
      providerExtras: { reasoning_details: [{ type: 'x' }] },
      toolCalls: [
        { id: 'c1', name: 'ls', arguments: '{"dir":"."}' },
        { id: 'c2', name: 'ls', arguments: '{bad' },
      ],
      provider: A.provider,
      model: A.model,
    }),
    msg({ role: 'tool', content: 'a.txt', toolCallId: 'c1', toolName: 'ls' }),
    msg({
      role: 'tool',
      content: 'error',
      toolCallId: 'c2',
      toolName: 'ls',
      failureKind: 'invalid_arguments',
    }),
    msg({
      role: 'assistant',
      content: 'There is a.txt',
      reasoning: 'done',
      provider: A.provider,
      model: A.model,
    }),
  ]

  it('sends reasoning back only on assistant messages with tool calls, for the same provider and model', () => {
    const { messages } = buildRequestView(history, A)
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Hello' })
    expect(messages[3]).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_content: 'I should call ls',
      reasoning_details: [{ type: 'x' }],
    })
    expect(messages[6]).toEqual({ role: 'assistant', content: 'There is a.txt' })
  })

  it('sends invalid stored arguments as {}', () => {
    const { messages } = buildRequestView(history, A)
    const calls = messages[3]?.['tool_calls'] as { function: { arguments: string } }[]
    expect(calls.map((c) => c.function.arguments)).toEqual(['{"dir":"."}', '{}'])
  })

  it('flattens tool calls made by another model to text, and never sends their reasoning', () => {
    const { messages, diagnostics } = buildRequestView(history, { ...A, model: 'gpt-x' })
    expect(diagnostics.flattenedToolCalls).toBe(2)
    expect(
      messages.some((m) => m.role === 'tool' || 'tool_calls' in m || 'reasoning_content' in m),
    ).toBe(false)
    expect(messages[3]).toEqual({
      role: 'assistant',
      content: '[Called tool ls with arguments {"dir":"."}]\n[Called tool ls with arguments {}]',
    })
    expect(messages[4]).toEqual({
      role: 'user',
      content: '[Result of tool ls]\na.txt\n\n[Result of tool ls]\nerror',
    })
    // roles still alternate
    for (let i = 1; i < messages.length; i++)
      expect(messages[i]?.role).not.toBe(messages[i - 1]?.role)
  })

  it('leaves out notices and everything before the latest summary, and adds the system prompt', () => {
    const h = [
      msg({ role: 'user', content: 'old' }),
      msg({ role: 'assistant', content: 'old answer' }),
      msg({ role: 'user', kind: 'summary', content: 'We talked about old things.' }),
      msg({ role: 'assistant', kind: 'notice', content: 'Model switched' }),
      msg({ role: 'user', content: 'new' }),
    ]
    const { messages } = buildRequestView(h, { ...A, systemPrompt: 'Be kind.' })
    expect(messages).toEqual([
      { role: 'system', content: 'Be kind.' },
      {
        role: 'user',
        content: 'Summary of the earlier conversation:\nWe talked about old things.\n\nnew',
      },
    ])
  })

  it('skips an assistant reply stopped before its first word', () => {
    const { messages } = buildRequestView(
      [
        msg({ role: 'user', content: 'a' }),
        msg({ role: 'assistant', content: '', status: 'stopped' }),
        msg({ role: 'user', content: 'b' }),
      ],
      A,
    )
    expect(messages).toEqual([{ role: 'user', content: 'a\n\nb' }])
  })

  it('passes images from tools to a model that accepts them, after the results, and describes them to others', () => {
    const h = [
      msg({ role: 'user', content: 'draw' }),
      msg({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'p', name: 'picture', arguments: '{}' }],
        provider: A.provider,
        model: A.model,
      }),
      msg({
        role: 'tool',
        content: 'a dot\n[image: image/png, 3 bytes]',
        toolCallId: 'p',
        toolName: 'picture',
        parts: [
          { type: 'text', text: 'a dot' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        ],
      }),
    ]
    const withImages = buildRequestView(h, { ...A, imageInput: true }).messages
    expect(withImages.at(-2)).toMatchObject({
      role: 'tool',
      content: 'a dot\n[image: image/png, 3 bytes]',
    })
    expect(withImages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images returned by the tools above, in order:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    })
    const without = buildRequestView(h, A).messages
    expect(without.at(-1)).toMatchObject({ role: 'tool' })
  })
})
