/**
 * Tools' views through the real router, settings and manager, against the scripted Apps
 * server: which tools have a view, a server's views blocked until the user allows them,
 * then read, checked and kept for the host to serve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unwrap, waitForEvent } from '../support/bridges'
import { openTestHost, type TestHost } from '../support/host'
import { fixture } from '../support/mcp'

let t: TestHost

beforeAll(async () => {
  t = await openTestHost({ prefix: 'cairn-views-', confirmCommand: async () => true })
  unwrap(
    await t.b.request('mcp.add', {
      name: 'apps',
      config: { command: process.execPath, args: [fixture('apps-server.mjs')] },
    }),
  )
  unwrap(await t.b.request('mcp.update', { name: 'apps', enabled: true }))
  await waitForEvent(t.b, 'mcp.status', (s) => s.name === 'apps' && s.state === 'ready')
})
afterAll(async () => {
  await t.stop()
})

describe("tools' views", () => {
  it('lists the tools that name a view, blocked until the server is allowed', async () => {
    const { views } = unwrap(await t.b.request('mcp.toolViews', {}))
    expect(views.map((v) => v.tool).sort()).toEqual(['plain', 'probe_escape', 'show_counter'])
    expect(views.every((v) => v.server === 'apps' && !v.allowed)).toBe(true)
    expect(views.find((v) => v.tool === 'show_counter')?.uri).toBe('ui://apps/counter.html')
    expect(
      unwrap(await t.b.request('mcp.openView', { server: 'apps', tool: 'show_counter' })),
    ).toEqual({ status: 'blocked' })
  })

  it('once allowed (the server keeps running), reads the view and keeps it for the host', async () => {
    const before = unwrap(await t.b.request('mcp.list', {})).servers.find((s) => s.name === 'apps')
    unwrap(await t.b.request('mcp.update', { name: 'apps', allowViews: true }))
    const after = unwrap(await t.b.request('mcp.list', {})).servers.find((s) => s.name === 'apps')
    expect(after?.pid).toBe(before?.pid)
    expect(after?.state).toBe('ready')
    const { views } = unwrap(await t.b.request('mcp.toolViews', {}))
    expect(views.every((v) => v.allowed)).toBe(true)

    const opened = unwrap(
      await t.b.request('mcp.openView', { server: 'apps', tool: 'show_counter' }),
    )
    if (opened.status !== 'ready') throw new Error('not ready')
    expect(opened.prefersBorder).toBe(true)
    expect(opened.refused).toEqual([])
    const served = t.host.views.serve(opened.path, 'app://cairn')
    expect(served.status).toBe(200)
    expect(served.body).toContain('Counter view')
    expect(served.headers['content-security-policy']).toContain("connect-src 'none'")
  })

  it('narrows what a view declares, and says what it refused', async () => {
    const opened = unwrap(
      await t.b.request('mcp.openView', { server: 'apps', tool: 'probe_escape' }),
    )
    if (opened.status !== 'ready') throw new Error('not ready')
    expect(opened.csp.connectDomains).toEqual(['https://api.example.com'])
    expect(opened.csp.resourceDomains).toEqual([])
    expect(opened.refused).toEqual([
      '* (not an https or wss origin)',
      'http://127.0.0.1:1 (not an https or wss origin)',
      "https://cdn.example.com 'unsafe-eval' (not an https or wss origin)",
    ])
  })

  it('refuses a view of the wrong type and a tool without one, saying so', async () => {
    const plain = await t.b.request('mcp.openView', { server: 'apps', tool: 'plain' })
    expect(plain).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    if (!plain.ok)
      expect(plain.error.message).toContain('as text/html, not text/html;profile=mcp-app')
    const none = await t.b.request('mcp.openView', { server: 'apps', tool: 'add' })
    expect(none).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})
