import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { byName, EVERYTHING, FILESYSTEM, nodeServer, startEverythingHttp } from '../support/mcp'

let manager: McpManager | null = null
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  await manager?.shutdown()
  manager = null
  for (const c of cleanups.splice(0)) await c()
})

function newManager(): McpManager {
  manager = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test' })
  return manager
}

const ctx = () => ({ signal: new AbortController().signal, sessionId: 's', toolCallId: 'c' })

describe('real MCP servers', () => {
  it('server-everything over stdio: ready with its tools, and echo works through the tool host', async () => {
    const m = newManager()
    m.apply({ everything: nodeServer(EVERYTHING, ['stdio']) })
    await m.settled(20_000)
    const info = byName(m.list(), 'everything')
    expect(info).toMatchObject({
      state: 'ready',
      transport: 'stdio',
      error: null,
      resolvedCommand: process.execPath,
    })
    expect(info.tools.map((t) => t.name)).toContain('echo')
    expect(info.pid).toBeGreaterThan(0)
    const host = new CompositeToolHost(() => m.sources())
    const echo = host.listTools().find((t) => t.name === 'everything__echo')
    expect(echo).toMatchObject({ server: 'everything', tool: 'echo', trusted: false })
    const result = await host.callTool('everything__echo', { message: 'hello cairn' }, ctx())
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hello cairn' }])
  })

  it('server-everything over Streamable HTTP', async () => {
    const srv = await startEverythingHttp('streamableHttp')
    cleanups.push(srv.stop)
    const m = newManager()
    m.apply({ web: { url: srv.url } })
    await m.settled(20_000)
    expect(byName(m.list(), 'web')).toMatchObject({ state: 'ready', transport: 'streamable-http' })
    const out = await m.get('web')!.call('echo', { message: 'over http' }, ctx())
    expect(out.content).toEqual([{ type: 'text', text: 'Echo: over http' }])
  })

  it('falls back to the legacy SSE transport when Streamable HTTP is not accepted', async () => {
    const srv = await startEverythingHttp('sse')
    cleanups.push(srv.stop)
    const m = newManager()
    m.apply({ legacy: { url: srv.url } })
    await m.settled(20_000)
    expect(byName(m.list(), 'legacy')).toMatchObject({ state: 'ready', transport: 'sse' })
    const out = await m.get('legacy')!.call('echo', { message: 'over sse' }, ctx())
    expect(out.content).toEqual([{ type: 'text', text: 'Echo: over sse' }])
  })

  it('server-filesystem reads a file in its allowed folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-fs-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'note.txt'), 'stones mark the way')
    const m = newManager()
    m.apply({ files: nodeServer(FILESYSTEM, [dir]) })
    await m.settled(20_000)
    const info = byName(m.list(), 'files')
    expect(info.state).toBe('ready')
    const readTool = info.tools.find((t) => t.name === 'read_text_file' || t.name === 'read_file')
    expect(readTool).toBeDefined()
    const out = await m.get('files')!.call(readTool!.name, { path: join(dir, 'note.txt') }, ctx())
    expect(JSON.stringify(out.content)).toContain('stones mark the way')
  })

  it('names a command that cannot be found and the directories searched', async () => {
    const m = newManager()
    m.apply({
      ghost: { command: 'cairn-no-such-command-xyz' },
      everything: nodeServer(EVERYTHING, ['stdio']),
    })
    await m.settled(20_000)
    const ghost = byName(m.list(), 'ghost')
    expect(ghost.state).toBe('error')
    expect(ghost.error).toContain('cairn-no-such-command-xyz')
    expect(ghost.error).toMatch(/\/usr\/bin|\/bin/)
    // the other server is unaffected
    expect(byName(m.list(), 'everything').state).toBe('ready')
  })

  it('a disabled server is listed with its full command but not started', async () => {
    const m = newManager()
    m.apply({ off: { ...nodeServer(EVERYTHING, ['stdio'], { API_TOKEN: 'x' }), disabled: true } })
    await m.settled(5_000)
    const off = byName(m.list(), 'off')
    expect(off).toMatchObject({ enabled: false, state: 'stopped', pid: null })
    expect(off.command).toContain(EVERYTHING)
    expect(off.command).toContain('env: API_TOKEN')
    expect(m.sources()).toHaveLength(0)
  })

  it("passes the server a minimal environment, never the app's secrets", async () => {
    manager = new McpManager({
      launchStdio: stdioLauncher({
        env: { ...process.env, OPENAI_API_KEY: 'sk-must-not-leak', CAIRN_API_KEY: 'sk-nor-this' },
      }),
      clientVersion: 'test',
    })
    manager.apply({ everything: nodeServer(EVERYTHING, ['stdio'], { SERVER_SETTING: 'visible' }) })
    await manager.settled(20_000)
    const out = await manager.get('everything')!.call('get-env', {}, ctx())
    const text = JSON.stringify(out.content)
    expect(text).toContain('SERVER_SETTING')
    expect(text).toContain('PATH')
    expect(text).not.toContain('sk-must-not-leak')
    expect(text).not.toContain('sk-nor-this')
  })

  it('can be restarted by hand', async () => {
    const m = newManager()
    m.apply({ everything: nodeServer(EVERYTHING, ['stdio']) })
    await m.settled(20_000)
    const before = byName(m.list(), 'everything').pid
    expect(await m.restart('everything')).toBe(true)
    const after = byName(m.list(), 'everything')
    expect(after.state).toBe('ready')
    expect(after.pid).not.toBe(before)
    expect(await m.restart('nope')).toBe(false)
  })
})
