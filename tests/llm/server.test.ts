/**
 * The scripted server itself: strict history validation like a strict provider, the
 * stream_options rejection, the API key check, the queue and the fallback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, textReply, validateStrict } from '../support/openai-server'
import type { ScriptedServer } from '../support/openai-server'

async function post(
  server: ScriptedServer,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

async function errorMessage(res: Response): Promise<string> {
  const json = (await res.json()) as { error?: { message?: string } }
  return json.error?.message ?? ''
}

const call = (id: string, args = '{}'): Record<string, unknown> => ({
  id,
  type: 'function',
  function: { name: 'read_file', arguments: args },
})

describe('strict scripted server', () => {
  let server: ScriptedServer
  beforeEach(async () => {
    server = await startScriptedServer()
  })
  afterEach(async () => {
    await server.close()
  })

  it('rejects an assistant tool call left unanswered, records the request, and consumes no reply', async () => {
    server.enqueue(textReply('kept for later'))
    const res = await post(server, {
      model: 'm',
      messages: [
        { role: 'user', content: 'read it' },
        { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
        { role: 'user', content: 'and?' },
      ],
    })
    expect(res.status).toBe(400)
    const message = await errorMessage(res)
    expect(message).toContain("'call_2'")
    expect(message).toContain('must be followed by tool messages')
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.body.messages).toHaveLength(4)

    const next = await post(server, { model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(next.status).toBe(200)
    expect(await next.text()).toContain('kept for later'.slice(0, 4))
  })

  it('rejects an unanswered call at the end of the history', () => {
    expect(
      validateStrict([
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [call('call_9')] },
      ]),
    ).toContain("'call_9'")
  })

  it('rejects an orphan tool message', async () => {
    const res = await post(server, {
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'call_zz', content: 'result' },
      ],
    })
    expect(res.status).toBe(400)
    expect(await errorMessage(res)).toContain('orphan')
  })

  it('rejects arguments that are not a valid JSON string, and non-text tool content', () => {
    expect(
      validateStrict([{ role: 'assistant', content: null, tool_calls: [call('call_1', '{"a":')] }]),
    ).toContain('not valid JSON')
    expect(
      validateStrict([
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: { a: 1 } } }],
        },
      ]),
    ).toContain('must be a JSON string')
    expect(
      validateStrict([
        { role: 'assistant', content: null, tool_calls: [call('call_1')] },
        { role: 'tool', tool_call_id: 'call_1', content: { bytes: 1 } },
      ]),
    ).toContain('must be a string or an array of text parts')
  })

  it('accepts a valid history with answered calls (text parts allowed)', () => {
    expect(
      validateStrict([
        { role: 'system', content: 's' },
        { role: 'user', content: 'x' },
        { role: 'assistant', content: '', tool_calls: [call('a'), call('b', '{"p":1}')] },
        { role: 'tool', tool_call_id: 'b', content: 'B' },
        { role: 'tool', tool_call_id: 'a', content: [{ type: 'text', text: 'A' }] },
        { role: 'assistant', content: 'done' },
      ]),
    ).toBeNull()
  })

  it('answers with the fallback when the queue is empty (default 500)', async () => {
    const res = await post(server, { model: 'm', messages: [] })
    expect(res.status).toBe(500)
    expect(await errorMessage(res)).toBe('no scripted reply')
    server.setFallback(textReply('fallback'))
    const ok = await post(server, { model: 'm', messages: [] })
    expect(ok.status).toBe(200)
    const sse = await ok.text()
    expect(sse).toContain('"model":"m"')
    expect(sse).toContain('"object":"chat.completion.chunk"')
    expect(sse.trimEnd().endsWith('data: [DONE]')).toBe(true)
  })

  it('closes without hanging on an open SSE stream', async () => {
    server.enqueue({ type: 'sse', items: [], end: 'hang' })
    const res = await post(server, { model: 'm', messages: [] })
    expect(res.status).toBe(200)
    const reading = res.text().catch((err: unknown) => `failed: ${String(err)}`)
    // a close that waited for the open stream would never finish: the test would time out
    await server.close()
    expect(await reading).toMatch(/^failed/)
    server = await startScriptedServer()
  })
})

describe('server options', () => {
  it('rejectStreamOptions answers 400 naming stream_options', async () => {
    const server = await startScriptedServer({ rejectStreamOptions: true })
    try {
      const res = await post(server, {
        model: 'm',
        messages: [],
        stream: true,
        stream_options: { include_usage: true },
      })
      expect(res.status).toBe(400)
      expect(await errorMessage(res)).toBe('Unrecognized request argument supplied: stream_options')
    } finally {
      await server.close()
    }
  })

  it('apiKey requires the bearer token', async () => {
    const server = await startScriptedServer({ apiKey: 'k1' })
    try {
      server.setFallback(textReply('ok'))
      expect((await post(server, { model: 'm', messages: [] })).status).toBe(401)
      expect(
        (await post(server, { model: 'm', messages: [] }, { authorization: 'Bearer k1' })).status,
      ).toBe(200)
      expect(server.requests).toHaveLength(2)
    } finally {
      await server.close()
    }
  })
})
