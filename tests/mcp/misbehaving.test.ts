import { afterEach, describe, expect, it } from 'vitest'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import type { ConnectionDeps } from '../../src-main/adapters/mcp/connection'
import { byName, fixture, isAlive, nodeServer, waitFor } from '../support/mcp'

let manager: McpManager | null = null
afterEach(async () => {
  await manager?.shutdown()
  manager = null
})

function newManager(extra: Partial<ConnectionDeps> = {}): McpManager {
  manager = new McpManager({
    launchStdio: stdioLauncher(),
    clientVersion: 'test',
    restartBaseMs: 100,
    ...extra,
  })
  return manager
}

const ctx = (signal = new AbortController().signal) => ({ signal, sessionId: 's', toolCallId: 'c' })
const good = () => nodeServer(fixture('echo-server.mjs'))
const text = (out: { content: { type: string; text?: string }[] }): string =>
  out.content.map((c) => c.text ?? '').join('')

describe('misbehaving MCP servers', () => {
  it('a server that exits during initialize: a clear error, no hang, the others unaffected', async () => {
    const m = newManager()
    m.apply({ dies: nodeServer(fixture('exits-during-initialize.mjs')), good: good() })
    await m.settled(15_000)
    const dies = byName(m.list(), 'dies')
    expect(dies.state).toMatch(/error|starting/)
    expect(dies.error ?? '').toMatch(/exit(ed)? (with )?code 3|exit code 3/)
    expect(dies.error ?? '').toContain('fatal: missing configuration')
    expect(byName(m.list(), 'good').state).toBe('ready')
  })

  it('a server that never answers initialize is given up on, and its process is gone', async () => {
    const m = newManager({ connectTimeoutMs: 800 })
    m.apply({ mute: nodeServer(fixture('never-answers.mjs')), good: good() })
    await m.settled(10_000)
    const mute = byName(m.list(), 'mute')
    expect(mute.state).toBe('error')
    expect(mute.error).toMatch(/timed out/i)
    expect(mute.stderrTail).toContain('never-answers: got initialize')
    expect(byName(m.list(), 'good').state).toBe('ready')
    const pid = mute.pid!
    await waitFor(() => !isAlive(pid), 8000, 'the silent server to be stopped')
  })

  it('a server that crashes in the middle of a call: the call fails clearly, and the server is restarted', async () => {
    const m = newManager()
    m.apply({ crashy: nodeServer(fixture('crashes-mid-call.mjs')), good: good() })
    await m.settled(10_000)
    const firstPid = byName(m.list(), 'crashy').pid!
    await expect(m.get('crashy')!.call('crash', {}, ctx())).rejects.toThrow(
      /stopped while crash was running \(exit code 70\)/,
    )
    expect(isAlive(firstPid)).toBe(false)
    await waitFor(() => byName(m.list(), 'crashy').state === 'ready', 10_000, 'the restart')
    const after = byName(m.list(), 'crashy')
    expect(after.restarts).toBe(1)
    expect(after.pid).not.toBe(firstPid)
    expect(text(await m.get('crashy')!.call('echo', { message: 'back' }, ctx()))).toBe('Echo: back')
    expect(text(await m.get('good')!.call('echo', { message: 'fine' }, ctx()))).toBe('Echo: fine')
  })

  it('a call that never answers times out, and the server is told to cancel it', async () => {
    const m = newManager()
    m.apply({ slow: { ...nodeServer(fixture('hang-on-call.mjs')), timeoutMs: 500 } })
    await m.settled(10_000)
    // the server never answers: without the timeout this call would never end
    await expect(m.get('slow')!.call('hang', { progressMs: 0 }, ctx())).rejects.toThrow(
      /did not answer within 1 s|did not answer within 0 s/,
    )
    await waitFor(
      () => byName(m.list(), 'slow').stderrTail.includes('hang-on-call: cancelled'),
      3000,
      'the cancellation',
    )
    const stats = JSON.parse(text(await m.get('slow')!.call('stats', {}, ctx()))) as {
      started: number
      cancelled: number
    }
    expect(stats).toEqual({ started: 1, cancelled: 1 })
  })

  it('progress resets the timeout, but the maximum still bounds the call', async () => {
    const m = newManager()
    m.apply({
      slow: { ...nodeServer(fixture('hang-on-call.mjs')), timeoutMs: 400, maxTimeoutMs: 1500 },
    })
    await m.settled(10_000)
    const started = Date.now()
    await expect(m.get('slow')!.call('hang', { progressMs: 100 }, ctx())).rejects.toThrow(
      /did not answer/,
    )
    // kept alive by progress well past 400 ms; the progress never stops, so only the
    // maximum ended it (without it, the call would never end)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400)
  })

  it('Stop during a call cancels it on the server', async () => {
    const m = newManager()
    m.apply({ slow: nodeServer(fixture('hang-on-call.mjs')) })
    await m.settled(10_000)
    const stop = new AbortController()
    setTimeout(() => stop.abort(new Error('stopped by the user')), 200)
    await expect(m.get('slow')!.call('hang', { progressMs: 0 }, ctx(stop.signal))).rejects.toThrow()
    await waitFor(
      () => byName(m.list(), 'slow').stderrTail.includes('hang-on-call: cancelled'),
      3000,
      'the cancellation',
    )
  })

  it('a server that prints a banner and garbage on stdout still works', async () => {
    const m = newManager()
    m.apply({ noisy: nodeServer(fixture('banner-and-garbage.mjs')) })
    await m.settled(10_000)
    expect(byName(m.list(), 'noisy').state).toBe('ready')
    expect(text(await m.get('noisy')!.call('echo', { message: 'through the noise' }, ctx()))).toBe(
      'Echo: through the noise',
    )
  })

  it('a server that floods stderr works, and only the last 64 KB are kept', async () => {
    const m = newManager()
    m.apply({ loud: nodeServer(fixture('stderr-flood.mjs')) })
    await m.settled(10_000)
    expect(byName(m.list(), 'loud').state).toBe('ready')
    await waitFor(
      () => byName(m.list(), 'loud').stderrTail.includes('FLOOD_END'),
      5000,
      'the end of the flood',
    )
    expect(Buffer.byteLength(byName(m.list(), 'loud').stderrTail)).toBeLessThanOrEqual(64 * 1024)
    expect(text(await m.get('loud')!.call('echo', { message: 'hi' }, ctx()))).toBe('Echo: hi')
  })

  it('a server whose grandchild ignores SIGTERM leaves no process behind', async () => {
    const m = newManager()
    m.apply({ stubborn: nodeServer(fixture('grandchild-ignores-sigterm.mjs')) })
    await m.settled(10_000)
    const pids = JSON.parse(text(await m.get('stubborn')!.call('pids', {}, ctx()))) as {
      pid: number
      grandchildPid: number
    }
    expect(isAlive(pids.pid) && isAlive(pids.grandchildPid)).toBe(true)
    await m.shutdown()
    manager = null
    await waitFor(
      () => !isAlive(pids.pid) && !isAlive(pids.grandchildPid),
      8000,
      'both processes to end',
    )
  })

  it('tools/list_changed refreshes the tools; images, structured content and errors come through', async () => {
    const m = newManager()
    m.apply({ good: good() })
    await m.settled(10_000)
    const conn = m.get('good')!
    await conn.call('list_changed_trigger', {}, ctx())
    await waitFor(() => conn.tools().some((t) => t.name === 'dynamic_1'), 3000, 'the new tool')
    const image = await conn.call('image', {}, ctx())
    expect(image.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' })
    const structured = await conn.call('structured', { a: 2, b: 3 }, ctx())
    expect(structured.structuredContent).toEqual({ sum: 5 })
    await expect(conn.call('bad_structured', {}, ctx())).rejects.toThrow(
      /output schema|structured content/i,
    )
    const error = await conn.call('error', {}, ctx())
    expect(error).toMatchObject({ isError: true })
    expect(text(error)).toBe('something went wrong')
  })
})
