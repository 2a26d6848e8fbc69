/**
 * `cairn mcp search` and `cairn mcp install` with the built CLI in its own process, against
 * the scripted MCP registry (the setting `mcpRegistryUrl` in the data directory's settings).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCliEnv } from '../support/cli'
import { startMcpRegistry, type ScriptedRegistry } from '../support/mcp-registry'

let registry: ScriptedRegistry
let env: NodeJS.ProcessEnv
let dataDir: string
let stop: () => Promise<void>

beforeEach(async () => {
  registry = await startMcpRegistry()
  ;({ env, dataDir, stop } = await startCliEnv({ prefix: 'cairn-cli-registry-' }))
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ mcpRegistryUrl: registry.url }), {
    mode: 0o600,
  })
})
afterEach(async () => {
  await stop()
  await registry.close()
})

const cli = (...args: string[]) => runCli(args, { env })
const stored = (): Record<string, Record<string, unknown>> =>
  (
    JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
      mcpServers: Record<string, Record<string, unknown>>
    }
  ).mcpServers

describe('cairn mcp search', () => {
  it('lists the servers found with their publisher; the registry’s control sequences never reach the terminal', async () => {
    const r = await cli('mcp', 'search', 'weather')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('io.github.alice/weather  1.4.2  (npm, pypi, remote)')
    expect(r.stdout).toContain('published by GitHub account alice')
    expect(r.stdout).toContain('io.github.mallory/weather-plus')
    expect(r.stdout).not.toContain('\u001b')
    expect(r.stdout).not.toContain('\u0007')
    const json = await cli('mcp', 'search', 'files', '--json')
    expect(JSON.parse(json.stdout)).toMatchObject({ servers: [{ name: 'com.example/files' }] })
  }, 60_000) // two runs of the CLI
})

describe('cairn mcp install', () => {
  it('shows what it runs and adds it switched off, with the values given', async () => {
    const r = await cli(
      'mcp',
      'install',
      'io.github.alice/weather',
      '--env',
      'WEATHER_API_KEY=k-1',
      '--env',
      'arg:0=imperial',
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('publisher: GitHub account alice')
    expect(r.stdout).toContain('runs:     npx -y @alice/weather-mcp@1.4.2 --units metric')
    expect(r.stdout).toContain('env WEATHER_API_KEY (required, secret)')
    expect(r.stdout).toContain('cairn mcp enable weather')
    expect(stored()['weather']).toEqual({
      disabled: true,
      command: 'npx',
      args: ['-y', '@alice/weather-mcp@1.4.2', '--units', 'imperial'],
      env: { WEATHER_API_KEY: 'k-1', WEATHER_REGION: 'eu' },
    })
  })

  it('--use picks another way and --name another name; a missing required value is said', async () => {
    const missing = await cli('mcp', 'install', 'io.github.alice/weather', '--use', 'remote:0')
    expect(missing.code).toBe(2) // a usage mistake: a value to give
    expect(missing.stderr).toContain('Authorization')
    const r = await cli(
      'mcp',
      'install',
      'io.github.alice/weather',
      '--use',
      'remote:0',
      '--name',
      'forecast',
      '--header',
      'Authorization=Bearer t',
    )
    expect(r.code).toBe(0)
    expect(stored()['forecast']).toEqual({
      disabled: true,
      url: 'https://weather.alice.example/mcp',
      headers: { Authorization: 'Bearer t' },
    })
  })

  it('refuses a server none of whose ways is one Cairn accepts, and adds nothing', async () => {
    const r = await cli('mcp', 'install', 'io.github.mallory/weather-plus')
    expect(r.code).not.toBe(0)
    expect(r.stdout).toContain('not the package runner Cairn uses for npm packages (npx)')
    expect(r.stderr).toContain('none of its ways to run is one it accepts')
    expect(r.stdout + r.stderr).not.toContain('\u001b')
    expect(stored()?.['weather-plus']).toBeUndefined()
  })
})
