/**
 * A scripted MCP registry on 127.0.0.1 speaking the registry's v0.1 API: `GET
 * /v0.1/servers?search=` (a case-insensitive match on the name, as the official registry
 * does) and `GET /v0.1/servers/{name}/versions/latest`, serving the server.json documents of
 * tests/fixtures/mcp-registry/ (or others given) with the official registry's `_meta`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

export interface ScriptedRegistry {
  url: string
  /** every request's path and query */
  requests: string[]
  close(): Promise<void>
}

const FIXTURES = join(process.cwd(), 'tests', 'fixtures', 'mcp-registry')

/** the server.json documents of tests/fixtures/mcp-registry/ */
export function registryFixtures(): Record<string, unknown>[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.server.json'))
    .map((f) => JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Record<string, unknown>)
}

const meta = {
  'io.modelcontextprotocol.registry/official': {
    status: 'active',
    publishedAt: '2026-10-01T12:00:00Z',
    updatedAt: '2026-10-01T12:00:00Z',
    isLatest: true,
  },
}

export async function startMcpRegistry(
  documents: Record<string, unknown>[] = registryFixtures(),
  opts: { junkEntries?: unknown[] } = {},
): Promise<ScriptedRegistry> {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    requests.push(`${url.pathname}${url.search}`)
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (url.pathname === '/v0.1/servers') {
      const q = (url.searchParams.get('search') ?? '').toLowerCase()
      const servers = documents
        .filter((d) => String(d['name']).toLowerCase().includes(q))
        .map((server) => ({ server, _meta: meta }))
      const all = [...servers, ...(opts.junkEntries ?? [])]
      return json(200, { servers: all, metadata: { count: all.length } })
    }
    const one = /^\/v0\.1\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(url.pathname)
    if (one) {
      const name = decodeURIComponent(one[1]!)
      const d = documents.find((x) => x['name'] === name)
      if (!d) return json(404, { title: 'Not Found', status: 404, detail: 'Server not found' })
      return json(200, { server: d, _meta: meta })
    }
    json(404, { title: 'Not Found', status: 404 })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
