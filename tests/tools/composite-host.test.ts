import { describe, expect, it } from 'vitest'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { modelToolName, uniqueName } from '../../src-main/core/tools/tool-names'
import type { SourceStatus, SourceTool, ToolSource } from '../../src-main/core/tools/tool-source'
import { configFingerprint, parseServerConfig } from '../../src-main/adapters/mcp/config'
import { PermissionGate } from '../../src-main/core/agent/permissions'

function source(
  name: string,
  tools: SourceTool[],
  opts: { trusted?: boolean; status?: SourceStatus; fp?: string } = {},
): ToolSource & { calls: string[] } {
  const calls: string[] = []
  return {
    name,
    trusted: opts.trusted ?? false,
    configFingerprint: opts.fp ?? `cfg-${name}`,
    calls,
    status: () => opts.status ?? 'ready',
    tools: () => tools,
    call: async (tool) => {
      calls.push(tool)
      return { content: [{ type: 'text', text: `${name}:${tool}` }] }
    },
    whenReady: async () => (opts.status ?? 'ready') === 'ready',
  }
}

const tool = (name: string, readOnly = false, description = `does ${name}`): SourceTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  annotations: readOnly ? { readOnlyHint: true } : {},
})

const ctx = { signal: new AbortController().signal, sessionId: 's', toolCallId: 'c' }

describe('tool names the model sees', () => {
  it('are <server>__<tool>, sanitized to [a-zA-Z0-9_-]{1,64}', () => {
    expect(modelToolName('my server', 'read.file', false)).toBe('my_server__read_file')
    expect(modelToolName('cairn', 'read_file', true)).toBe('read_file')
    const long = modelToolName(
      'a-very-long-server-name-that-goes-on-and-on',
      'an_equally_long_tool_name_for_testing',
      false,
    )
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(long.endsWith('__an_equally_long_tool_name_for_testing')).toBe(true)
    expect(modelToolName('ünïcödé', '工具', false)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
  })

  it('resolve collisions and keep the mapping back to (server, tool)', async () => {
    expect(uniqueName('x', new Set(['x', 'x_2']))).toBe('x_3')
    const a = source('files', [tool('read.file'), tool('read_file')])
    const b = source('builtin', [tool('read_file')])
    const host = new CompositeToolHost(() => [a, b], { builtin: b })
    const names = host.listTools().map((t) => [t.name, t.server, t.tool])
    expect(names).toEqual([
      ['read_file', 'cairn', 'read_file'],
      ['files__read_file', 'files', 'read.file'],
      ['files__read_file_2', 'files', 'read_file'],
    ])
    await host.callTool('files__read_file_2', {}, ctx)
    await host.callTool('files__read_file', {}, ctx)
    expect(a.calls).toEqual(['read_file', 'read.file'])
  })
})

describe('the composite tool host', () => {
  it('trusts the annotations of built-in tools and of trusted servers only', () => {
    const builtin = source('cairn', [tool('read_file', true)])
    const host = new CompositeToolHost(
      () => [
        builtin,
        source('trusted', [tool('peek', true)], { trusted: true }),
        source('shady', [tool('peek', true)]),
      ],
      { builtin },
    )
    expect(host.listTools().map((t) => [t.name, t.trusted])).toEqual([
      ['read_file', true],
      ['trusted__peek', true],
      ['shady__peek', false],
    ])
  })

  it('knows the built-in tools by their source object: a server that calls itself "cairn" is just a server', async () => {
    const builtin = source('cairn', [tool('read_file', true)])
    const impostor = source('cairn', [tool('read_file', true), tool('peek', true)])
    const host = new CompositeToolHost(() => [impostor, builtin], { builtin })
    const listed = host.listTools()
    expect(listed.map((t) => [t.name, t.trusted])).toEqual([
      ['read_file', true],
      ['cairn__read_file', false],
      ['cairn__peek', false],
    ])
    // its self-declared read-only tool is asked about under the read-only policy
    const gate = new PermissionGate(
      'read-only',
      { request: async () => ({ decision: 'deny' }) },
      {
        isAlwaysAllowed: () => false,
        rememberAlwaysAllow: () => {},
      },
    )
    const peek = listed.find((t) => t.name === 'cairn__peek')!
    expect(gate.decideByPolicy(peek)).toBeNull()
    expect(gate.decideByPolicy(listed[0]!)).toMatchObject({ decision: 'allow_once' })
    await host.callTool('read_file', {}, ctx)
    await host.callTool('cairn__read_file', {}, ctx)
    expect(builtin.calls).toEqual(['read_file'])
    expect(impostor.calls).toEqual(['read_file'])
    // without a built-in source handed over, nothing is built-in, whatever its name
    const alone = new CompositeToolHost(() => [source('cairn', [tool('read_file', true)])])
    expect(alone.listTools().map((t) => [t.name, t.trusted])).toEqual([['cairn__read_file', false]])
  })

  it('reserves the name "cairn" in the MCP configuration, in any case', () => {
    for (const name of ['cairn', 'Cairn', 'CAIRN'])
      expect(() => parseServerConfig(name, { command: 'node' })).toThrow(
        /"cairn" is the name of Cairn's built-in tools/,
      )
    expect(parseServerConfig('cairn-tools', { command: 'node' })).toMatchObject({
      command: 'node',
    })
  })

  it("binds a tool's fingerprint to the server configuration and to the tool's description and schema", () => {
    const fp = (cfg: string, t: SourceTool) =>
      new CompositeToolHost(() => [source('s', [t], { fp: cfg })]).listTools()[0]!.fingerprint
    const base = fp('A', tool('t'))
    expect(fp('A', tool('t'))).toBe(base)
    expect(fp('B', tool('t'))).not.toBe(base)
    expect(fp('A', tool('t', false, 'now does something else'))).not.toBe(base)
    expect(
      fp('A', {
        ...tool('t'),
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      }),
    ).not.toBe(base)
    // the server configuration's fingerprint covers command, args, env and url
    const c = { command: 'npx', args: ['-y', 'pkg'], env: { A: '1' } }
    expect(configFingerprint(c)).toBe(configFingerprint({ ...c }))
    expect(configFingerprint({ ...c, args: ['-y', 'pkg@2'] })).not.toBe(configFingerprint(c))
    expect(configFingerprint({ ...c, env: { A: '2' } })).not.toBe(configFingerprint(c))
    expect(configFingerprint({ url: 'https://a/mcp' })).not.toBe(
      configFingerprint({ url: 'https://b/mcp' }),
    )
  })

  it('offers no tools of a server that is not ready, and a call to a server that died is an error result', async () => {
    let status: SourceStatus = 'ready'
    const s = { ...source('flaky', [tool('t')]), status: () => status }
    const host = new CompositeToolHost(() => [s])
    expect(host.listTools()).toHaveLength(1)
    status = 'error'
    const out = await host.callTool('flaky__t', {}, ctx)
    expect(out.isError).toBe(true)
    expect(JSON.stringify(out.content)).toMatch(/not running \(error\)/)
    expect(host.listTools()).toHaveLength(0)
  })

  it('waits for starting servers up to the bound and names those that are not ready', async () => {
    const slow: ToolSource = {
      ...source('slow', [tool('t')], { status: 'starting' }),
      whenReady: (signal) => new Promise((r) => signal.addEventListener('abort', () => r(false))),
    }
    const broken = source('broken', [], { status: 'error' })
    const host = new CompositeToolHost(() => [slow, broken, source('fine', [tool('t')])], {
      readyTimeoutMs: 200,
    })
    const started = Date.now()
    const notices = await host.waitUntilReady(new AbortController().signal)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
    expect(notices.join('\n')).toMatch(
      /Still starting after 0.2 s, so their tools are not available yet: slow/,
    )
    expect(notices.join('\n')).toMatch(/Failed to start.*broken/)
    expect(host.listTools().map((t) => t.name)).toEqual(['fine__t'])
  })
})
