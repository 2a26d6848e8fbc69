/**
 * Tools whose `x-mcp-header` declarations cannot be sent as headers are left out of a
 * 2026-07-28 HTTP server's list (the others stay), with a notice; a result without
 * `resultType` is taken as complete.
 */
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { completeByDefault } from '../../src-main/adapters/mcp/result-type'
import { readToolList, refusedNotice } from '../../src-main/adapters/mcp/tool-list'
import { invalidHeaderDeclaration } from '../../src-main/adapters/mcp/x-mcp-header'

const prop = (schema: Record<string, unknown>) => ({
  type: 'object',
  properties: { p: schema },
})

describe('x-mcp-header declarations', () => {
  it('accepts headers on string, integer and boolean properties, nested through properties', () => {
    expect(invalidHeaderDeclaration(prop({ type: 'string', 'x-mcp-header': 'Region' }))).toBeNull()
    expect(
      invalidHeaderDeclaration({
        type: 'object',
        properties: {
          a: { type: 'integer', 'x-mcp-header': 'A' },
          o: { type: 'object', properties: { b: { type: 'boolean', 'x-mcp-header': 'B' } } },
        },
      }),
    ).toBeNull()
    expect(invalidHeaderDeclaration({ type: 'object', properties: {} })).toBeNull()
  })

  it.each([
    ['empty', prop({ type: 'string', 'x-mcp-header': '' }), /non-empty/],
    ['with a space', prop({ type: 'string', 'x-mcp-header': 'My Header' }), /not a valid header/],
    ['with a colon', prop({ type: 'string', 'x-mcp-header': 'a:b' }), /not a valid header/],
    ['non-ASCII', prop({ type: 'string', 'x-mcp-header': 'Région' }), /not a valid header/],
    ['on an object', prop({ type: 'object', 'x-mcp-header': 'O' }), /this one is object/],
    ['on a number', prop({ type: 'number', 'x-mcp-header': 'N' }), /this one is number/],
    ['without a type', prop({ 'x-mcp-header': 'T' }), /this one is <none>/],
    ['on the root', { type: 'object', 'x-mcp-header': 'R' }, /only allowed on a property/],
    [
      'under items',
      prop({ type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } }),
      /only allowed on a property/,
    ],
    [
      'under anyOf',
      prop({ anyOf: [{ type: 'string', 'x-mcp-header': 'X' }] }),
      /only allowed on a property/,
    ],
    [
      'declared twice (any case)',
      {
        type: 'object',
        properties: {
          a: { type: 'string', 'x-mcp-header': 'Region' },
          b: { type: 'string', 'x-mcp-header': 'REGION' },
        },
      },
      /declared twice/,
    ],
  ])('refuses one %s', (_what, schema, why) => {
    expect(invalidHeaderDeclaration(schema)).toMatch(why)
  })

  it('a tool list keeps the valid tools and names what it left out', async () => {
    const tools = [
      { name: 'good', inputSchema: prop({ type: 'string', 'x-mcp-header': 'Good' }) },
      { name: 'bad', inputSchema: prop({ type: 'object', 'x-mcp-header': 'Bad' }) },
      { name: 'plain', inputSchema: { type: 'object' } },
    ]
    const client = {
      getServerCapabilities: () => ({ tools: {} }),
      request: async () => ({ tools }),
    } as unknown as Client
    const list = await readToolList(client, 'srv', { max: 100, checkHeaders: true })
    expect(list.tools.map((t) => t.name)).toEqual(['good', 'plain'])
    expect(refusedNotice('srv', list.refused)).toMatch(
      /^The server "srv" offers the tool bad with header declarations Cairn cannot send \(p: x-mcp-header is only allowed on string, integer or boolean properties/,
    )
    // a 2025-era session (or stdio) sends no such headers: nothing is left out
    const legacy = await readToolList(client, 'srv', { max: 100, checkHeaders: false })
    expect(legacy.tools).toHaveLength(3)
  })
})

describe('a result without resultType', () => {
  it('reaches the protocol layer as complete; other results are left as they are', () => {
    const seen: JSONRPCMessage[] = []
    const transport = completeByDefault({ start: async () => {} } as unknown as Transport & {
      deliver(m: JSONRPCMessage): void
    })
    transport.onmessage = (m: JSONRPCMessage) => void seen.push(m)
    const deliver = (m: JSONRPCMessage): void => transport.onmessage?.(m)
    deliver({ jsonrpc: '2.0', id: 1, result: { content: [] } } as JSONRPCMessage)
    deliver({ jsonrpc: '2.0', id: 2, result: { resultType: 'input_required' } } as JSONRPCMessage)
    deliver({ jsonrpc: '2.0', id: 3, error: { code: -1, message: 'no' } } as JSONRPCMessage)
    deliver({ jsonrpc: '2.0', method: 'notifications/x' } as JSONRPCMessage)
    expect(seen).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [], resultType: 'complete' } },
      { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required' } },
      { jsonrpc: '2.0', id: 3, error: { code: -1, message: 'no' } },
      { jsonrpc: '2.0', method: 'notifications/x' },
    ])
  })
})
