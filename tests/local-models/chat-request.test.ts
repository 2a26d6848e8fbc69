/**
 * The tool-calling path of the local runtime, checked by what reaches the chat template and
 * the grammar (the tiny test model's own calls would be nonsense): OpenAI messages become
 * node-llama-cpp's chat history with each call's result inside the model turn that made
 * it, any tool schema becomes one the grammar builder accepts, and the chat template
 * writes the tools and the results into the prompt.
 */
import { GeneralChatWrapper, LlamaJsonSchemaGrammar, getLlama } from 'node-llama-cpp'
import { describe, expect, it } from 'vitest'
import {
  chatCompletionRequest,
  toChatHistory,
  toFunctions,
} from '../../src-main/local-runtime/chat-request'
import { toGbnfSchema } from '../../src-main/local-runtime/json-schema-gbnf'

const request = chatCompletionRequest.parse({
  model: 'm',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'system', content: 'Today is Monday.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Read a.txt' },
        { type: 'image_url', image_url: { url: 'x' } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'hello from a.txt' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Reads a file in the workspace',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string' } },
          required: ['path'],
        },
      },
    },
  ],
})

/** schemas as MCP servers write them, with what the grammar has no word for */
const HOSTILE_SCHEMAS: Record<string, unknown>[] = [
  {
    type: 'object',
    properties: { q: { type: 'string', pattern: '^(a+)+$' }, n: { type: 'integer', minimum: 1 } },
    required: ['q'],
  },
  {
    type: 'object',
    properties: { node: { $ref: '#/$defs/node' } },
    $defs: { node: { type: 'object' } },
  },
  {
    type: 'object',
    properties: {
      v: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      t: { type: ['string', 'number'] },
    },
  },
  {
    type: 'object',
    properties: {
      list: { type: 'array', items: { type: 'object', properties: { k: { enum: ['a', 'b'] } } } },
    },
    additionalProperties: false,
  },
  { type: 'object', properties: { deep: nest(40) } },
  {},
]

function nest(depth: number): Record<string, unknown> {
  return depth === 0 ? { type: 'string' } : { type: 'object', properties: { d: nest(depth - 1) } }
}

describe('local runtime: requests', () => {
  it('a call and its result become one model turn the model goes on from; system messages join; images are named', () => {
    const history = toChatHistory(request.messages)
    expect(history).toHaveLength(3)
    expect(history[0]).toEqual({ type: 'system', text: 'You are terse.\n\nToday is Monday.' })
    expect(history[1]).toEqual({
      type: 'user',
      text: 'Read a.txt[image_url left out: this local model reads text only]',
    })
    expect(history[2]).toEqual({
      type: 'model',
      response: [
        {
          type: 'functionCall',
          name: 'read_file',
          params: { path: 'a.txt' },
          result: 'hello from a.txt',
        },
      ],
    })
    // after a user's message, a new model turn to write
    expect(toChatHistory([{ role: 'user', content: 'hi' }]).at(-1)).toEqual({
      type: 'model',
      response: [],
    })
  })

  it('tools become the functions the template offers; tool_choice none offers none', () => {
    expect(toFunctions(request)).toEqual({
      read_file: {
        description: 'Reads a file in the workspace',
        params: {
          type: 'object',
          properties: { path: { type: 'string' } },
          additionalProperties: false,
        },
      },
    })
    expect(toFunctions({ ...request, tool_choice: 'none' })).toBeUndefined()
  })

  it('the chat template writes the tools and the call with its result into the prompt', () => {
    const { contextText } = new GeneralChatWrapper().generateContextState({
      chatHistory: toChatHistory(request.messages),
      availableFunctions: toFunctions(request)!,
    })
    const prompt = contextText.toString()
    expect(prompt).toContain('read_file')
    expect(prompt).toContain('Reads a file in the workspace')
    expect(prompt).toContain('hello from a.txt')
    expect(prompt).toContain('You are terse.')
  })

  it('any schema becomes one the grammar builder accepts (real llama.cpp binary)', async () => {
    const llama = await getLlama({
      build: 'never',
      gpu: false,
      skipDownload: true,
      progressLogs: false,
    })
    try {
      for (const schema of HOSTILE_SCHEMAS) {
        const converted = toGbnfSchema(schema)
        const grammar = (s: unknown) => new LlamaJsonSchemaGrammar(llama, s as never)
        expect(() => grammar(converted)).not.toThrow()
      }
      // what the grammar cannot say is loosened, never guessed: the pattern and the bound go
      expect(toGbnfSchema(HOSTILE_SCHEMAS[0]!)).toMatchObject({
        type: 'object',
        properties: { q: { type: 'string' } },
      })
    } finally {
      await llama.dispose()
    }
  })
})
