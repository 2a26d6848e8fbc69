/**
 * Cairn speaks MCP 2026-07-28 with a server that does (the SDK's v2 server, over stdio and
 * Streamable HTTP) and the 2025 handshake with one that does not (the v1 SDK's servers),
 * through the same McpConnection: the revision is found at connect time. With a 2026-07-28
 * server: a question asked within a call (`input_required`, its state sent back as is), an
 * argument a tool designates sent as a header too, the tool list's changes heard on the
 * stream Cairn opens for them, and a server that exits on a request before `initialize`
 * started again without the probe.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { McpConnection, type ConnectionDeps } from '../../src-main/adapters/mcp/connection'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import type { McpServerConfig } from '../../src-main/core/mcp-ports'
import type { ElicitationAsk, ToolCallScope } from '../../src-main/core/ports'
import { EVERYTHING, fixture, nodeServer, startEverythingHttp } from '../support/mcp'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function connect(config: McpServerConfig, extra: Partial<ConnectionDeps> = {}) {
  const conn = new McpConnection('srv', config, {
    launchStdio: stdioLauncher({ env: process.env }),
    clientVersion: 'test',
    connectTimeoutMs: 20_000,
    ...extra,
  })
  cleanups.push(() => conn.stop())
  await conn.start()
  expect(conn.info().error).toBeNull()
  expect(conn.status()).toBe('ready')
  return conn
}

function ctx(answers: ElicitationAsk[] = []): ToolCallScope {
  return {
    signal: new AbortController().signal,
    sessionId: 's',
    toolCallId: 't',
    elicit: async (ask) => {
      answers.push(ask)
      return { action: 'accept', content: { sure: false } }
    },
  }
}

const text = (o: { content: { type: string }[] }): string =>
  o.content.map((p) => ('text' in p ? String(p.text) : '')).join('')

/** the modern fixture over Streamable HTTP, on a port it picks */
async function modernHttp(): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [fixture('modern-server.mjs'), '--http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  cleanups.push(() => void child.kill())
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)))
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\S+)/.exec(String(d))
      if (m) resolve(m[1]!)
    })
  })
}

describe('a 2026-07-28 server', () => {
  it('over stdio: connects without initialize and calls its tools', async () => {
    const conn = await connect(nodeServer(fixture('modern-server.mjs')))
    expect(conn.info().protocolVersion).toBe('2026-07-28')
    expect(text(await conn.call('echo', { message: 'hi' }, ctx()))).toBe('Echo (modern): hi')
  })

  it('over Streamable HTTP: a question within the call, its state sent back unchanged', async () => {
    const conn = await connect({ url: await modernHttp() })
    expect(conn.info().protocolVersion).toBe('2026-07-28')
    expect(conn.info().transport).toBe('streamable-http')
    const asked: ElicitationAsk[] = []
    const out = await conn.call('confirm', {}, ctx(asked))
    expect(asked).toEqual([
      expect.objectContaining({ server: 'srv', mode: 'form', message: 'Go ahead?' }),
    ])
    expect(text(out)).toBe('accept {"sure":false} with state-1')
  })

  it('over Streamable HTTP: a designated argument goes as its Mcp-Param header too', async () => {
    const conn = await connect({ url: await modernHttp() })
    expect(text(await conn.call('region', { region: 'eu-west3' }, ctx()))).toBe('header: eu-west3')
  })

  it('over Streamable HTTP: a change of its tool list reaches Cairn on the stream it opened', async () => {
    const conn = await connect({ url: await modernHttp() })
    expect(conn.tools().map((t) => t.name)).not.toContain('grown')
    await conn.call('grow', {}, ctx())
    const until = Date.now() + 10_000
    while (!conn.tools().some((t) => t.name === 'grown') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50))
    expect(conn.tools().map((t) => t.name)).toContain('grown')
    expect(text(await conn.call('grown', {}, ctx()))).toBe('here')
  })
})

describe('a 2025-era server', () => {
  it('over stdio: the probe falls back to initialize', async () => {
    const conn = await connect(nodeServer(EVERYTHING))
    expect(conn.info().protocolVersion).toBe('2025-11-25')
    expect(text(await conn.call('echo', { message: 'hi' }, ctx()))).toBe('Echo: hi')
  })

  it('over Streamable HTTP: the probe falls back to initialize', async () => {
    const http = await startEverythingHttp('streamableHttp')
    cleanups.push(() => http.stop())
    const conn = await connect({ url: http.url })
    expect(conn.info().protocolVersion).toBe('2025-11-25')
    expect(text(await conn.call('echo', { message: 'hi' }, ctx()))).toBe('Echo: hi')
  })

  it('one that exits on any request before initialize is started again, without the probe', async () => {
    const launch = stdioLauncher({ env: process.env })
    let launches = 0
    const conn = await connect(nodeServer(fixture('exits-on-discover.mjs')), {
      launchStdio: (name, config) => (launches++, launch(name, config)),
    })
    expect(launches).toBe(2)
    expect(conn.info().protocolVersion).toBe('2025-06-18')
    expect(text(await conn.call('echo', { message: 'again' }, ctx()))).toBe('Echo: again')
    // a restart knows it now: one start, no probe
    await conn.restart()
    expect(conn.status()).toBe('ready')
    expect(launches).toBe(3)
    expect(conn.info().protocolVersion).toBe('2025-06-18')
  })
})
