/**
 * The legacy SSE transport for the scripted protected server (tests/support/oauth-server.ts):
 * GET opens the event stream, POST /messages carries the client's messages. The bearer
 * check happens in the server before these run.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

export interface SseEndpoint {
  get(res: ServerResponse): Promise<void>
  post(req: IncomingMessage, res: ServerResponse, body: string): Promise<void>
  close(): Promise<void>
}

export function sseEndpoint(): SseEndpoint {
  const sessions = new Map<string, SSEServerTransport>()
  return {
    async get(res) {
      const transport = new SSEServerTransport('/messages', res)
      sessions.set(transport.sessionId, transport)
      const server = new Server(
        { name: 'protected-sse', version: '1' },
        { capabilities: { tools: {} } },
      )
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [{ name: 'whoami', inputSchema: { type: 'object' as const, properties: {} } }],
      }))
      server.setRequestHandler(CallToolRequestSchema, () => ({
        content: [{ type: 'text' as const, text: 'over sse' }],
      }))
      await server.connect(transport)
    },
    async post(req, res, body) {
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? ''
      const transport = sessions.get(id)
      if (!transport) return void res.writeHead(404).end()
      await transport.handlePostMessage(req, res, JSON.parse(body))
    },
    async close() {
      for (const t of sessions.values()) await t.close()
    },
  }
}
