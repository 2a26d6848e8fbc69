import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import { startCliEnv, runCli, startCli } from '../support/cli'
import { EVERYTHING, fixture, isAlive, waitFor } from '../support/mcp'
import {
  textReply,
  toolCallsReply,
  type ScriptedServer,
  lastToolContent,
} from '../support/openai-server'

let server: ScriptedServer
let dir: string
let env: NodeJS.ProcessEnv
let configFile: string
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, dir, env, configFile, stop } = await startCliEnv({
    prefix: 'cairn-cli-mcp-',
    models: ['m'],
    noLocalServers: false,
    mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } },
  }))
})
afterEach(() => stop())

describe('cairn with MCP servers', () => {
  it('--mcp-config with --approve all: the model calls echo and the answer carries its result', async () => {
    server.enqueue(
      toolCallsReply([
        { name: 'everything__echo', arguments: '{"message":"cairns mark the trail"}' },
      ]),
      (req) => textReply(`The server answered: ${lastToolContent(req)}`),
    )
    const r = await runCli(
      ['--mcp-config', configFile, '--approve', 'all', 'Please echo a phrase'],
      { env },
    )
    expect(r.stderr).not.toMatch(/Error/)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('The server answered: Echo: cairns mark the trail\n')
    expect(r.stderr).toMatch(/→ everything__echo/)
    const tools = (
      server.requests[0]?.body as { tools: { function: { name: string } }[] }
    ).tools.map((t) => t.function.name)
    expect(tools).toContain('everything__echo')
    expect(tools).toContain('read_file') // the built-in tools are there too
  })

  it('mcp list shows the server ready with its tools and the resolved command', async () => {
    const r = await runCli(['mcp', 'list', '--json', '--mcp-config', configFile], { env })
    expect(r.code).toBe(0)
    const { servers } = JSON.parse(r.stdout) as { servers: McpServerInfo[] }
    expect(servers).toHaveLength(1)
    expect(servers[0]).toMatchObject({
      name: 'everything',
      state: 'ready',
      enabled: true,
      resolvedCommand: process.execPath,
    })
    expect(servers[0]!.tools.map((t) => t.name)).toContain('echo')
    const text = await runCli(['mcp', 'list', '--mcp-config', configFile], { env })
    expect(text.stdout).toMatch(/^everything {2}ready {2}\(stdio, MCP 2025-11-25\)/m)
    expect(text.stdout).toMatch(/resolved: .*node/)
  })

  it('mcp add, disable, enable, trust and remove keep the settings', async () => {
    expect(
      (
        await runCli(
          ['mcp', 'add', 'ev', '--env', 'GREETING=hi', '--', 'node', EVERYTHING, 'stdio'],
          { env },
        )
      ).code,
    ).toBe(0)
    expect(
      (
        await runCli(
          [
            'mcp',
            'add',
            'remote',
            '--url',
            'http://127.0.0.1:9/mcp',
            '--header',
            'Authorization=Bearer t',
          ],
          { env },
        )
      ).code,
    ).toBe(0)
    const settings = () =>
      JSON.parse(readFileSync(join(dir, 'data', 'settings.json'), 'utf8')) as {
        mcpServers: Record<string, Record<string, unknown>>
      }
    expect(settings().mcpServers['ev']).toEqual({
      command: 'node',
      args: [EVERYTHING, 'stdio'],
      env: { GREETING: 'hi' },
    })
    expect(settings().mcpServers['remote']).toEqual({
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer t' },
    })
    expect((await runCli(['mcp', 'add', 'ev', '--', 'node'], { env })).code).toBe(2)
    await runCli(['mcp', 'disable', 'ev'], { env })
    expect(settings().mcpServers['ev']?.['disabled']).toBe(true)
    await runCli(['mcp', 'trust', 'ev'], { env })
    expect(settings().mcpServers['ev']?.['trustAnnotations']).toBe(true)
    await runCli(['mcp', 'enable', 'ev'], { env })
    expect(settings().mcpServers['ev']?.['disabled']).toBeUndefined()
    await runCli(['mcp', 'remove', 'remote'], { env })
    expect(Object.keys(settings().mcpServers)).toEqual(['ev'])
    expect((await runCli(['mcp', 'remove', 'nope'], { env })).code).toBe(2)
    const list = JSON.parse((await runCli(['mcp', 'list', '--json'], { env })).stdout) as {
      servers: McpServerInfo[]
    }
    expect(list.servers[0]).toMatchObject({ name: 'ev', state: 'ready', trustAnnotations: true })
  })

  it('import-claude brings servers in disabled, shows their full command, and enabling starts them', async () => {
    const claude = join(dir, 'claude_desktop_config.json')
    writeFileSync(
      claude,
      JSON.stringify({
        mcpServers: {
          everything: {
            command: 'node',
            args: [EVERYTHING, 'stdio'],
            env: { SECRET_TOKEN: 'abc' },
          },
        },
      }),
    )
    const r = await runCli(['mcp', 'import-claude', '--file', claude], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`node ${EVERYTHING} stdio`)
    expect(r.stdout).toContain('env: SECRET_TOKEN')
    expect(r.stdout).not.toContain('abc')
    expect(r.stdout).toContain('cairn mcp enable everything')
    const before = JSON.parse((await runCli(['mcp', 'list', '--json'], { env })).stdout) as {
      servers: McpServerInfo[]
    }
    expect(before.servers[0]).toMatchObject({
      name: 'everything',
      enabled: false,
      state: 'stopped',
      pid: null,
    })
    // a turn does not start a disabled server
    server.enqueue(textReply('no tools needed'))
    await runCli(['hi'], { env })
    const names = (
      server.requests[0]?.body as { tools: { function: { name: string } }[] }
    ).tools.map((t) => t.function.name)
    expect(names.some((n) => n.startsWith('everything__'))).toBe(false)
    await runCli(['mcp', 'enable', 'everything'], { env })
    const after = JSON.parse((await runCli(['mcp', 'list', '--json'], { env })).stdout) as {
      servers: McpServerInfo[]
    }
    expect(after.servers[0]).toMatchObject({ name: 'everything', enabled: true, state: 'ready' })
  })

  it('a broken --mcp-config is a usage error that says what is wrong', async () => {
    writeFileSync(configFile, JSON.stringify({ mcpServers: { bad: { args: ['x'] } } }))
    const r = await runCli(['--mcp-config', configFile, 'hi'], { env })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/needs a "command".*or a "url"/)
  })

  it('killing the server in the middle of a call finishes the turn with an error result and leaves no process', async () => {
    const started = join(dir, 'hang-started')
    writeFileSync(
      configFile,
      JSON.stringify({
        mcpServers: {
          slow: {
            command: 'node',
            args: [fixture('hang-on-call.mjs')],
            env: { HANG_STARTED_FILE: started },
          },
        },
      }),
    )
    server.enqueue(toolCallsReply([{ name: 'slow__hang', arguments: '{"progressMs":0}' }]), (req) =>
      textReply(`The tool failed: ${lastToolContent(req)}`),
    )
    const registry = join(dir, 'data', 'mcp-processes.json')
    const seen = new Set<number>()
    const readPids = (): number[] => {
      try {
        return (JSON.parse(readFileSync(registry, 'utf8')) as { pid: number }[]).map((e) => e.pid)
      } catch {
        return []
      }
    }
    const cli = startCli(
      ['--mcp-config', configFile, '--approve', 'all', '--json', 'run the slow tool'],
      { env },
    )
    await cli.waitForStdout('"type":"permission_decision"', 20_000)
    await waitFor(() => readPids().length > 0, 5000, 'the server in the registry')
    const pid = readPids()[0]!
    seen.add(pid)
    // the call is in flight (the server said it started it): now kill the server
    await waitFor(() => existsSync(started), 20_000, 'the hang call to start')
    process.kill(pid, 'SIGKILL')
    const poll = setInterval(() => readPids().forEach((p) => seen.add(p)), 50)
    const r = await cli.done
    clearInterval(poll)
    expect(r.code).toBe(0)
    const events = r.stdout
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { type: string; ok?: boolean; content?: string; reason?: string },
      )
    const result = events.find((e) => e.type === 'tool_result')
    expect(result).toMatchObject({ ok: false })
    expect(result?.content).toMatch(/stopped while hang was running \(killed by SIGKILL\)/)
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'completed' })
    for (const p of seen) expect(isAlive(p)).toBe(false)
    expect(readPids()).toEqual([])
  })
})
