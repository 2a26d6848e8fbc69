import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'

let dataDir: string
let env: NodeJS.ProcessEnv
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-cli-'))
  env = { CAIRN_DATA_DIR: dataDir, CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' }
})
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the name of the built-in tools', () => {
  it('cannot name an MCP server: mcp add and --mcp-config refuse it and say why', async () => {
    const added = await runCli(['mcp', 'add', 'Cairn', '--', process.execPath, '-e', '0'], {
      env,
    })
    expect(added.code).not.toBe(0)
    expect(added.stderr).toContain(`"cairn" is the name of Cairn's built-in tools`)
    const list = await runCli(['mcp', 'list', '--json'], { env })
    expect(list.stdout).not.toMatch(/"Cairn"/)

    const file = join(dataDir, 'servers.json')
    writeFileSync(file, JSON.stringify({ mcpServers: { cairn: { command: process.execPath } } }))
    const run = await runCli(['--mcp-config', file, 'mcp', 'list'], { env })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('choose another name')
  })
})
