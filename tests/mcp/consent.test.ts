/**
 * The consent rule for MCP server commands, through the real router, handlers, settings and
 * manager: a command runs only after the user allowed its exact command line — the desktop
 * app's dialog (a fake `confirmCommand` here) or, in browser mode, the fingerprint of the
 * command line the page showed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import type { CommandConsentRequest } from '../../src-main/services/handlers/handler-context'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { openTestHost } from '../support/host'
import { fixture } from '../support/mcp'

let stop: (() => Promise<void>) | null = null

afterEach(async () => {
  await stop?.()
  stop = null
})

async function open(
  confirmCommand?: (r: CommandConsentRequest) => Promise<boolean>,
  env: NodeJS.ProcessEnv = {},
): Promise<TestBridge> {
  const t = await openTestHost({
    prefix: 'cairn-mcp-consent-',
    hostKind: confirmCommand ? 'electron' : 'web',
    env,
    ...(confirmCommand ? { confirmCommand } : {}),
  })
  stop = t.stop
  return t.b
}

const echo = {
  command: process.execPath,
  args: [fixture('echo-server.mjs'), '--flag', 'two words'],
  env: { ECHO_TOKEN: 'secret-value' },
}
const byName = (list: McpServerInfo[], name: string): McpServerInfo => {
  const s = list.find((x) => x.name === name)
  if (!s) throw new Error(`no server ${name}`)
  return s
}

describe('desktop: the main process asks before a command runs', () => {
  it('a refused dialog leaves the server disabled and not started', async () => {
    const asked: CommandConsentRequest[] = []
    const bridge = await open(async (r) => (asked.push(r), false))
    unwrap(await bridge.request('mcp.add', { name: 'echo', config: echo }))
    // the renderer's own fingerprint does not count in the desktop app
    const fp = byName(unwrap(await bridge.request('mcp.list', {})).servers, 'echo').commandLine
    const r = await bridge.request('mcp.update', {
      name: 'echo',
      enabled: true,
      confirmedFingerprint: fp?.fingerprint,
    })
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(asked).toEqual([
      {
        server: 'echo',
        command: process.execPath,
        args: [fixture('echo-server.mjs'), '--flag', 'two words'],
        envNames: ['ECHO_TOKEN'],
        cwd: null,
      },
    ])
    const after = byName(unwrap(await bridge.request('mcp.list', {})).servers, 'echo')
    expect(after).toMatchObject({ enabled: false, state: 'stopped', pid: null })
  })

  it('an allowed dialog starts the server; trusting it later does not ask again', async () => {
    let asked = 0
    const bridge = await open(async () => (asked++, true))
    unwrap(await bridge.request('mcp.add', { name: 'echo', config: echo }))
    unwrap(await bridge.request('mcp.update', { name: 'echo', enabled: true }))
    const ready = await waitForEvent(
      bridge,
      'mcp.status',
      (s) => s.name === 'echo' && s.state === 'ready',
    )
    expect(ready.tools.map((t) => t.name)).toContain('echo')
    unwrap(await bridge.request('mcp.update', { name: 'echo', trustAnnotations: true }))
    expect(asked).toBe(1)
  })
})

describe('browser mode: the page proves the confirmed command line', () => {
  it('enabling without a confirmation, or with a stale one, is refused', async () => {
    const bridge = await open()
    const added = unwrap(await bridge.request('mcp.add', { name: 'echo', config: echo }))
    const shown = byName(added.servers, 'echo').commandLine!
    expect(shown).toMatchObject({ command: process.execPath, envNames: ['ECHO_TOKEN'] })

    const none = await bridge.request('mcp.update', { name: 'echo', enabled: true })
    expect(none).toMatchObject({ ok: false, error: { code: 'forbidden' } })

    // the command changed after the user confirmed the old one
    unwrap(
      await bridge.request('mcp.update', {
        name: 'echo',
        config: { ...echo, args: [fixture('echo-server.mjs'), '--other'] },
      }),
    )
    const stale = await bridge.request('mcp.update', {
      name: 'echo',
      enabled: true,
      confirmedFingerprint: shown.fingerprint,
    })
    expect(stale).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    if (!stale.ok) expect(stale.error.message).toMatch(/not the one that was confirmed/)
    const still = byName(unwrap(await bridge.request('mcp.list', {})).servers, 'echo')
    expect(still).toMatchObject({ enabled: false, state: 'stopped' })

    const right = await bridge.request('mcp.update', {
      name: 'echo',
      enabled: true,
      confirmedFingerprint: still.commandLine!.fingerprint,
    })
    expect(right.ok).toBe(true)
    await waitForEvent(bridge, 'mcp.status', (s) => s.name === 'echo' && s.state === 'ready')
  })

  it('a URL server needs no command confirmation', async () => {
    const bridge = await open()
    unwrap(
      await bridge.request('mcp.add', {
        name: 'remote',
        config: { url: 'http://127.0.0.1:9/mcp' },
      }),
    )
    const r = unwrap(await bridge.request('mcp.update', { name: 'remote', enabled: true }))
    expect(byName(r.servers, 'remote')).toMatchObject({ enabled: true, commandLine: null })
  })
})

describe('reading servers to add', () => {
  it('parses the three pasted forms and says which server and field is wrong', async () => {
    const bridge = await open()
    const full = unwrap(
      await bridge.request('mcp.parse', {
        text: JSON.stringify({
          mcpServers: {
            a: { command: 'npx', args: ['-y', 'x'] },
            b: { url: 'https://example.com/mcp' },
          },
        }),
      }),
    )
    expect(full.servers.map((s) => [s.name, s.commandLine?.args ?? null])).toEqual([
      ['a', ['-y', 'x']],
      ['b', null],
    ])
    const map = unwrap(await bridge.request('mcp.parse', { text: '{"one": {"command": "uvx"}}' }))
    expect(map.servers[0]).toMatchObject({ name: 'one', command: 'uvx', exists: false })
    const single = unwrap(
      await bridge.request('mcp.parse', {
        text: '{"command": "uvx", "args": ["tool"]}',
        name: 'solo',
      }),
    )
    expect(single.servers[0]).toMatchObject({ name: 'solo', command: 'uvx tool' })

    const unnamed = await bridge.request('mcp.parse', { text: '{"command": "uvx"}' })
    expect(unnamed).toMatchObject({ ok: false, error: { message: expect.stringMatching(/name/) } })
    const badArgs = await bridge.request('mcp.parse', {
      text: '{"mcpServers": {"good": {"command": "a"}, "bad": {"command": "b", "args": "x"}}}',
    })
    expect(badArgs).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringContaining('mcpServers["bad"].args') },
    })
    const notJson = await bridge.request('mcp.parse', { text: '{"mcpServers": ' })
    expect(notJson).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/not valid JSON/) },
    })
  })

  it("imports Claude Desktop's servers from its usual place, for review", async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-home-'))
    try {
      const bridge = await open(undefined, { HOME: home })
      const missing = await bridge.request('mcp.importClaude', {})
      expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } })
      const where =
        process.platform === 'darwin'
          ? join(home, 'Library', 'Application Support', 'Claude')
          : join(home, '.config', 'Claude')
      mkdirSync(where, { recursive: true })
      writeFileSync(
        join(where, 'claude_desktop_config.json'),
        JSON.stringify({
          mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs', '/tmp'] } },
        }),
      )
      const found = unwrap(await bridge.request('mcp.importClaude', {}))
      expect(found.file).toBe(join(where, 'claude_desktop_config.json'))
      expect(found.servers).toMatchObject([
        { name: 'fs', commandLine: { command: 'npx', args: ['-y', 'server-fs', '/tmp'] } },
      ])
      // nothing was added by reading
      expect(unwrap(await bridge.request('mcp.list', {})).servers).toEqual([])
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
