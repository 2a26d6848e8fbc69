/**
 * Installing from an MCP registry through the real router, handlers and settings, against
 * the scripted registry on 127.0.0.1 (server.json documents of tests/fixtures/mcp-registry/):
 * found by words, reviewed (publisher, package, command line, the values it needs), added
 * switched off, and started only through the consent every server goes through. What the
 * registry says is never trusted: unknown runners and kinds of package are refused, with why.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import type { CommandConsentRequest } from '../../src-main/services/handlers/handler-context'
import { unwrap, type TestBridge } from '../support/bridges'
import { openTestHost } from '../support/host'
import { startMcpRegistry, type ScriptedRegistry } from '../support/mcp-registry'

let registry: ScriptedRegistry
let b: TestBridge
let stop: () => Promise<void>
const asked: CommandConsentRequest[] = []

beforeEach(async () => {
  registry = await startMcpRegistry(undefined, { junkEntries: [{ server: { name: 42 } }] })
  const t = await openTestHost({
    prefix: 'cairn-registry-install-',
    confirmCommand: async (r) => (asked.push(r), false),
  })
  b = t.b
  stop = t.stop
  asked.length = 0
  unwrap(await b.request('settings.update', { mcpRegistryUrl: registry.url }))
})
afterEach(async () => {
  await stop()
  await registry.close()
})

const byName = (list: McpServerInfo[], name: string): McpServerInfo | undefined =>
  list.find((x) => x.name === name)

describe('finding servers in the registry', () => {
  it('searches each word, best match first, and leaves out entries it cannot read', async () => {
    const r = unwrap(await b.request('mcp.registrySearch', { query: 'weather plus' }))
    expect(r.registry).toBe(registry.url)
    expect(r.servers.map((s) => s.name)).toEqual([
      'io.github.mallory/weather-plus',
      'io.github.alice/weather',
    ])
    expect(r.leftOut).toBe(2) // the junk entry, once per word asked
    expect(r.servers[1]).toMatchObject({
      title: 'Weather',
      version: '1.4.2',
      kinds: ['npm', 'pypi', 'remote'],
      status: 'active',
      publisher: {
        namespace: 'io.github.alice',
        verifiedAs: 'GitHub account alice',
        repository: 'https://github.com/alice/weather-mcp',
      },
    })
    expect(registry.requests).toContain('/v0.1/servers?search=weather&version=latest&limit=30')
  })

  it('a registry that cannot be reached is registry_unreachable, saying where', async () => {
    unwrap(await b.request('settings.update', { mcpRegistryUrl: 'http://127.0.0.1:9' }))
    const r = await b.request('mcp.registrySearch', { query: 'weather' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe('registry_unreachable')
    expect(r.error.message).toContain('http://127.0.0.1:9')
  })

  it('an unknown name is not_found', async () => {
    const r = await b.request('mcp.registryServer', { name: 'io.github.nobody/nothing' })
    expect(r.ok ? null : r.error.code).toBe('not_found')
  })
})

describe('reviewing a server', () => {
  it('shows each way to run it: the exact command line and the values it needs', async () => {
    const { server } = unwrap(
      await b.request('mcp.registryServer', { name: 'io.github.alice/weather' }),
    )
    expect(server.suggestedName).toBe('weather')
    expect(server.exists).toBe(false)
    const [npm, pypi, remote] = server.options
    expect(npm).toMatchObject({
      id: 'package:0',
      type: 'npm',
      command: 'npx',
      args: ['-y', '@alice/weather-mcp@1.4.2', '--units', 'metric'],
      refused: null,
    })
    expect(npm!.inputs.map((i) => [i.id, i.required, i.secret, i.default])).toEqual([
      ['env:WEATHER_API_KEY', true, true, ''],
      ['env:WEATHER_REGION', false, false, 'eu'],
      ['arg:0', false, false, 'metric'],
    ])
    expect(npm!.inputs[2]).toMatchObject({ name: '--units', choices: ['metric', 'imperial'] })
    expect(pypi).toMatchObject({ command: 'uvx', args: ['alice-weather-mcp==1.4.2'] })
    expect(remote).toMatchObject({
      kind: 'remote',
      url: 'https://weather.alice.example/mcp',
      inputs: [{ id: 'header:Authorization', secret: true, required: true }],
    })
  })

  it('an OCI image runs with docker, variables passed by name, a required argument asked for', async () => {
    const { server } = unwrap(await b.request('mcp.registryServer', { name: 'com.example/files' }))
    expect(server.publisher.verifiedAs).toBe('the domain example.com')
    const [oci] = server.options
    expect(oci).toMatchObject({
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '-e',
        'LOG_LEVEL',
        '--mount',
        'type=bind,src=/tmp,dst=/data',
        'docker.io/example/files-mcp:0.6.0',
      ],
    })
    expect(oci!.inputs.find((i) => i.kind === 'argument')).toMatchObject({
      id: 'arg:1',
      name: 'root_folder',
      required: true,
    })
  })

  it('refuses a runner that is not the package runner, a kind it cannot run and a shape it cannot read', async () => {
    const { server } = unwrap(
      await b.request('mcp.registryServer', { name: 'io.github.mallory/weather-plus' }),
    )
    expect(server.options.map((o) => o.refused)).toEqual([
      expect.stringContaining('"bash"'),
      expect.stringContaining('does not install nuget packages'),
      expect.stringContaining('in a form Cairn does not read'),
    ])
    expect(server.options.every((o) => o.command === null)).toBe(true)
    // its text is kept as text: the window shows it escaped, the CLI strips the controls
    expect(server.description).toContain('<img src=x onerror=alert(1)>')
    const r = await b.request('mcp.registryInstall', {
      registryName: 'io.github.mallory/weather-plus',
      option: 'package:0',
      name: 'weather-plus',
      values: {},
    })
    expect(r.ok ? null : r.error.code).toBe('bad_request')
    expect(byName(unwrap(await b.request('mcp.list', {})).servers, 'weather-plus')).toBeUndefined()
  })
})

describe('installing', () => {
  it('adds the server switched off with the values given; switching it on asks with its command line', async () => {
    const missing = await b.request('mcp.registryInstall', {
      registryName: 'io.github.alice/weather',
      option: 'package:0',
      name: 'weather',
      values: {},
    })
    expect(missing.ok).toBe(false)
    if (missing.ok) return
    expect(missing.error.code).toBe('bad_request')
    expect(missing.error.message).toContain('WEATHER_API_KEY')
    expect(missing.error.details).toEqual({
      fields: { 'values.env:WEATHER_API_KEY': 'a value is needed' },
    })

    const { servers } = unwrap(
      await b.request('mcp.registryInstall', {
        registryName: 'io.github.alice/weather',
        option: 'package:0',
        name: 'weather',
        values: { 'env:WEATHER_API_KEY': 'k-123' },
      }),
    )
    const added = byName(servers, 'weather')!
    expect(added.enabled).toBe(false)
    expect(added.commandLine).toMatchObject({
      command: 'npx',
      args: ['-y', '@alice/weather-mcp@1.4.2', '--units', 'metric'],
      envNames: ['WEATHER_API_KEY', 'WEATHER_REGION'],
    })
    // nothing ran: switching it on goes through the consent (refused here)
    const on = await b.request('mcp.update', { name: 'weather', enabled: true })
    expect(on.ok).toBe(false)
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ server: 'weather', command: 'npx' })
    expect(byName(unwrap(await b.request('mcp.list', {})).servers, 'weather')?.enabled).toBe(false)
  })

  it('a remote is added with its header; a taken name is a conflict', async () => {
    const install = (name: string) =>
      b.request('mcp.registryInstall', {
        registryName: 'io.github.alice/weather',
        option: 'remote:0',
        name,
        values: { 'header:Authorization': 'Bearer t' },
      })
    const { servers } = unwrap(await install('weather-remote'))
    expect(byName(servers, 'weather-remote')).toMatchObject({
      enabled: false,
      transport: 'streamable-http',
      command: 'https://weather.alice.example/mcp (headers: Authorization)',
    })
    const again = await install('weather-remote')
    expect(again.ok ? null : again.error.code).toBe('conflict')
  })
})
