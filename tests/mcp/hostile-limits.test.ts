/**
 * Hostile MCP servers meet limits: endless tools/list pagination stops at a page limit, a
 * server's tools are capped (with a warning), and a 50 MB result is cut with the truncation
 * marker instead of being dropped as "did not answer".
 */
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_TOOL_PAGES } from '../../src-main/adapters/mcp/connection'
import { MAX_RESULT_CHARS } from '../../src-main/adapters/mcp/content'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import type { ConnectionDeps } from '../../src-main/adapters/mcp/connection'
import { byName, fixture, nodeServer } from '../support/mcp'

let manager: McpManager | null = null
afterEach(async () => {
  await manager?.shutdown()
  manager = null
})

function newManager(extra: Partial<ConnectionDeps> = {}): McpManager {
  manager = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test', ...extra })
  return manager
}

const hostile = (mode: string, amount?: number) =>
  nodeServer(fixture('hostile.mjs'), amount === undefined ? [mode] : [mode, String(amount)])
const ctx = () => ({ signal: new AbortController().signal, sessionId: 's', toolCallId: 'c' })

describe('hostile MCP servers', () => {
  it('endless tools/list pagination stops at the page limit, and the server is usable', async () => {
    const warnings: string[] = []
    const m = newManager({ onWarning: (w) => warnings.push(w) })
    m.apply({ pages: hostile('endless-pages') })
    await m.settled(20_000)
    const info = byName(m.list(), 'pages')
    expect(info.state).toBe('ready')
    expect(info.tools).toHaveLength(MAX_TOOL_PAGES)
    expect(info.error).toMatch(/more than 50 pages/)
    expect(warnings.join('\n')).toMatch(/more than 50 pages/)
  })

  it('a server that pages slowly is given up on at the start limit, which a timer we own enforces', async () => {
    const m = newManager({ connectTimeoutMs: 1_000, restartBaseMs: 60_000 })
    m.apply({ slow: hostile('slow-pages', 200) })
    await m.settled(20_000)
    const info = byName(m.list(), 'slow')
    expect(info.state).toBe('error')
    expect(info.error).toMatch(/timed out/)
  })

  it('gives the model at most the configured number of tools of one server, and warns', async () => {
    const warnings: string[] = []
    const m = newManager({ maxToolsPerServer: () => 40, onWarning: (w) => warnings.push(w) })
    m.apply({ many: hostile('many-tools', 5000) })
    await m.settled(20_000)
    const conn = m.get('many')!
    expect(conn.status()).toBe('ready')
    expect(conn.tools()).toHaveLength(40)
    expect(conn.tools()[0]?.name).toBe('t0')
    expect(warnings.join('\n')).toMatch(/offers 5000 tools; only the first 40/)
    expect(byName(m.list(), 'many').error).toMatch(/only the first 40/)
  })

  it('the default limit of tools per server is 100', async () => {
    const m = newManager()
    m.apply({ many: hostile('many-tools', 300) })
    await m.settled(20_000)
    expect(m.get('many')!.tools()).toHaveLength(100)
  })

  it('a 50 MB result is cut with the truncation marker, not dropped', async () => {
    const m = newManager()
    m.apply({ big: hostile('huge-result', 50) })
    await m.settled(20_000)
    const out = await m.get('big')!.call('big', {}, ctx())
    const text = out.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
    expect(text.startsWith('xxxx')).toBe(true)
    expect(text).toMatch(/\[OUTPUT TRUNCATED: showing 1000000 of 52428800 characters from big\]$/)
    expect(text.length).toBeLessThan(MAX_RESULT_CHARS + 200)
  }, 60_000)

  it('a result larger than Cairn reads fails at once, saying so, instead of waiting for the timeout', async () => {
    const m = newManager()
    // a call timeout far longer than the test: only the early answer can end the call
    m.apply({ big: { ...hostile('huge-result', 70), timeoutMs: 600_000 } })
    await m.settled(20_000)
    const failed = await m
      .get('big')!
      .call('big', {}, ctx())
      .then(
        (out) => out.content.map((p) => (p.type === 'text' ? p.text : '')).join(''),
        (e: unknown) => String(e),
      )
    expect(failed).toMatch(/larger than \d+ MB, the most Cairn reads/)
    // and the server still answers afterwards
    expect(m.list().find((s) => s.name === 'big')?.state).toBe('ready')
  }, 90_000)
})
