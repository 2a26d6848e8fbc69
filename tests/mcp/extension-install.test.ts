/**
 * Installing a Claude Desktop extension (`.mcpb`) through the real router, handlers,
 * settings, secrets and MCP manager: a real bundle (a zip with its manifest and a small
 * Node server made with the SDK) is opened for review, installed switched off, switched on
 * through the consent every server goes through, and its tool is called by the scripted
 * model, with the sensitive setting filled in from secrets.json only as the server starts.
 * Removing it removes its folder and its secrets.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { AgentEvent } from '../../src-preload/contract/events'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import type { CommandConsentRequest } from '../../src-main/services/handlers/handler-context'
import { unwrap } from '../support/bridges'
import { openChatHost, type ChatHost } from '../support/host'
import { greeterBundle, greeterManifest } from '../support/mcpb'
import { lastToolContent, textReply, toolCallsReply } from '../support/openai-server'

let t: ChatHost | null = null
afterEach(async () => {
  await t?.stop()
  t = null
})

const asked: CommandConsentRequest[] = []

async function open(): Promise<ChatHost> {
  asked.length = 0
  t = await openChatHost({
    prefix: 'cairn-mcpb-',
    models: ['m'],
    confirmCommand: async (r) => (asked.push(r), true),
  })
  return t
}

const byName = (list: McpServerInfo[], name: string): McpServerInfo | undefined =>
  list.find((s) => s.name === name)

async function ready(h: ChatHost, name: string): Promise<McpServerInfo> {
  for (let i = 0; i < 300; i++) {
    const s = byName(unwrap(await h.b.request('mcp.list', {})).servers, name)
    if (s?.state === 'ready' || s?.state === 'error') return s
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${name} did not start`)
}

describe('a .mcpb bundle', () => {
  it('is reviewed, installed switched off, started after consent, and its tool runs', async () => {
    const h = await open()
    const data = join(h.dir, 'data')
    const review = unwrap(
      await h.b.request('mcp.extensionOpen', { name: 'greeter.mcpb', data: greeterBundle() }),
    )
    expect(review).toMatchObject({
      file: 'greeter.mcpb',
      manifestVersion: '0.3',
      name: 'greeter',
      displayName: 'Greeter',
      version: '1.2.0',
      author: { name: 'Ada Example', email: 'ada@example.com', url: null },
      entryPoint: 'server/index.cjs',
      runtime: { type: 'node', command: 'node' },
      tools: [{ name: 'greet', description: 'Greets someone.' }],
      prompts: [{ name: 'welcome', description: 'A welcome.' }],
      compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18' } },
      command: 'node',
      args: ['${__dirname}/server/index.cjs', '--units=${user_config.units}'],
      envNames: ['GREETER_KEY'],
      refused: null,
      suggestedName: 'greeter',
      exists: false,
      files: 2,
    })
    expect(review.runtime.found).toMatch(/node$/)
    expect(review.settings.map((s) => [s.key, s.required, s.sensitive, s.default])).toEqual([
      ['api_key', true, true, ''],
      ['units', false, false, 'metric'],
    ])

    // a required setting left out is refused, naming it; the bundle stays staged
    const missing = await h.b.request('mcp.extensionInstall', {
      stageId: review.stageId,
      name: 'greeter',
      values: {},
    })
    expect(missing.ok ? null : missing.error.message).toContain('"API key" (api_key) is required')

    const { servers } = unwrap(
      await h.b.request('mcp.extensionInstall', {
        stageId: review.stageId,
        name: 'greeter',
        values: { api_key: 'sk-extension-secret', units: 'imperial' },
      }),
    )
    const folder = join(data, 'extensions', 'greeter')
    expect(byName(servers, 'greeter')).toMatchObject({
      enabled: false,
      commandLine: {
        command: 'node',
        args: [join(folder, 'server/index.cjs'), '--units=imperial'],
        envNames: ['GREETER_KEY'],
        cwd: folder,
      },
    })
    expect(readdirSync(join(data, 'extensions', '.staging'))).toEqual([])
    // the key is in secrets.json, never in settings.json
    expect(readFileSync(join(data, 'settings.json'), 'utf8')).not.toContain('sk-extension-secret')
    expect(readFileSync(join(data, 'settings.json'), 'utf8')).toContain('${user_config.api_key}')
    expect(readFileSync(join(data, 'secrets.json'), 'utf8')).toContain('sk-extension-secret')

    unwrap(await h.b.request('mcp.update', { name: 'greeter', enabled: true }))
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({
      server: 'greeter',
      command: 'node',
      envNames: ['GREETER_KEY'],
    })
    expect(JSON.stringify(asked[0])).not.toContain('sk-extension-secret')
    const started = await ready(h, 'greeter')
    expect(started.state).toBe('ready')
    expect(started.tools.map((x) => x.name)).toEqual(['greet'])

    const events: AppEvent[] = []
    h.host.hub.subscribe((e) => void events.push(e))
    h.server.enqueue(
      toolCallsReply([{ name: 'greeter__greet', arguments: '{"name":"Bo"}' }]),
      (req) => textReply(`done: ${lastToolContent(req)}`),
    )
    const sent = unwrap(await h.b.request('chat.send', { text: 'greet Bo', workspace: h.dir }))
    const next = <T extends AgentEvent['type']>(
      type: T,
    ): Promise<Extract<AgentEvent, { type: T }>> =>
      new Promise((resolve) => {
        const check = (): void => {
          const hit = events.find(
            (e) =>
              e.event === 'agent' && e.payload.turnId === sent.turnId && e.payload.type === type,
          )
          if (hit) resolve(hit.payload as Extract<AgentEvent, { type: T }>)
          else setTimeout(check, 30)
        }
        check()
      })
    const ask = await next('permission_request')
    unwrap(
      await h.b.request('approvals.respond', { requestId: ask.requestId, decision: 'allow_once' }),
    )
    const result = (await next('tool_result')).content
    expect(result).toBe(`Hello Bo, key sk-extension-secret, --units=imperial, in ${folder}`)

    // removing the server removes the unpacked folder and the secret
    unwrap(await h.b.request('mcp.remove', { name: 'greeter' }))
    expect(existsSync(folder)).toBe(false)
    expect(readFileSync(join(data, 'secrets.json'), 'utf8')).not.toContain('sk-extension-secret')
  })

  it('a binary server is refused with the reason; a discarded bundle leaves nothing', async () => {
    const h = await open()
    const manifest = greeterManifest({
      server: {
        type: 'binary',
        entry_point: 'server/index.cjs',
        mcp_config: { command: '${__dirname}/server/index.cjs' },
      },
    })
    const review = unwrap(
      await h.b.request('mcp.extensionOpen', { name: 'bin.mcpb', data: greeterBundle(manifest) }),
    )
    expect(review.refused).toContain('Node.js, Python or uv')
    const r = await h.b.request('mcp.extensionInstall', {
      stageId: review.stageId,
      name: 'bin',
      values: { api_key: 'k' },
    })
    expect(r.ok ? null : r.error.code).toBe('bad_request')
    unwrap(await h.b.request('mcp.extensionDiscard', { stageId: review.stageId }))
    expect(readdirSync(join(h.dir, 'data', 'extensions', '.staging'))).toEqual([])
    expect(byName(unwrap(await h.b.request('mcp.list', {})).servers, 'bin')).toBeUndefined()
  })
})
