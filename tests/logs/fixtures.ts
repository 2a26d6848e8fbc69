/** Requests and responses for the turn log tests. */
import type { TurnLogRequest, TurnLogResponse } from '../../src-main/core/ports'

export function request(over: Partial<TurnLogRequest> = {}): TurnLogRequest {
  return {
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'qwen3',
    body: {
      model: 'qwen3',
      messages: [{ role: 'user', content: 'hello' }],
      tools: [{ type: 'function', function: { name: 'read_note', parameters: {} } }],
      stream: true,
      temperature: 0.2,
    },
    turnId: 'turn-a',
    round: 1,
    attempt: 1,
    ...over,
  }
}

export function response(over: Partial<TurnLogResponse> = {}): TurnLogResponse {
  return {
    content: 'hi there',
    reasoning: 'thinking',
    toolCalls: [{ id: 'c1', name: 'read_note', arguments: '{"key":"a"}' }],
    finishReason: 'tool_calls',
    usage: { inputTokens: 10, outputTokens: 5, estimated: false },
    latencyMs: 120,
    timeToFirstTokenMs: 40,
    retries: [{ attempt: 1, reason: 'rate_limited', delayMs: 500 }],
    error: null,
    status: 'complete',
    ...over,
  }
}
