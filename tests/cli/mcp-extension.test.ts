/**
 * `cairn mcp install <file.mcpb>` and `cairn mcp remove` with the built CLI in its own
 * process: a real bundle is shown (author, tools, settings, what it runs) and added
 * switched off, its sensitive setting in secrets.json only; a hostile one is refused and
 * leaves nothing; removing the server removes its folder.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCliEnv } from '../support/cli'
import { greeterBundle, zipWithEntry } from '../support/mcpb'

let env: NodeJS.ProcessEnv
let dataDir: string
let dir: string
let stop: () => Promise<void>

beforeEach(async () => {
  ;({ env, dataDir, stop } = await startCliEnv({ prefix: 'cairn-cli-mcpb-' }))
  dir = join(dataDir, '..')
})
afterEach(() => stop())

const cli = (...args: string[]) => runCli(args, { env })

describe('cairn mcp install <file.mcpb>', () => {
  it('shows the extension and adds it switched off; remove takes its folder away', async () => {
    const file = join(dir, 'greeter.mcpb')
    writeFileSync(file, greeterBundle())
    const missing = await cli('mcp', 'install', file)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('"API key" (api_key) is required')
    expect(existsSync(join(dataDir, 'extensions', 'greeter'))).toBe(false)

    const r = await cli('mcp', 'install', file, '--set', 'api_key=sk-cli-secret', '--name', 'hello')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Greeter 1.2.0  (extension greeter, manifest 0.3)')
    expect(r.stdout).toContain('author:   Ada Example, ada@example.com')
    expect(r.stdout).toContain(
      'runs:     node ${__dirname}/server/index.cjs --units=${user_config.units}',
    )
    expect(r.stdout).toContain('    greet  Greets someone.')
    expect(r.stdout).toContain(
      'api_key: API key (string, required, sensitive: kept in secrets.json)',
    )
    expect(r.stdout).toContain('cairn mcp enable hello')
    const settings = readFileSync(join(dataDir, 'settings.json'), 'utf8')
    expect(settings).not.toContain('sk-cli-secret')
    expect(JSON.parse(settings).mcpServers.hello).toMatchObject({
      command: 'node',
      args: [join(dataDir, 'extensions', 'hello', 'server', 'index.cjs'), '--units=metric'],
      env: { GREETER_KEY: '${user_config.api_key}' },
      extension: 'hello',
      disabled: true,
    })
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toContain('sk-cli-secret')

    const removed = await cli('mcp', 'remove', 'hello')
    expect(removed.code).toBe(0)
    expect(existsSync(join(dataDir, 'extensions', 'hello'))).toBe(false)
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toContain('sk-cli-secret')
  }, 180_000) // three runs of the CLI, on a busy machine

  it('a zip-slip bundle is refused and leaves nothing', async () => {
    const file = join(dir, 'evil.mcpb')
    writeFileSync(file, zipWithEntry('../../evil.txt'))
    const r = await cli('mcp', 'install', file)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('the entry "../../evil.txt" points outside the bundle\'s folder')
    expect(existsSync(join(dir, 'evil.txt'))).toBe(false)
    expect(readdirSync(join(dataDir, 'extensions', '.staging'))).toEqual([])
  }, 90_000)
})
