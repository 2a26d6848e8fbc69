/** What the MCP doctor says about a server that does not start, from real processes. */
import { afterEach, describe, expect, it } from 'vitest'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { byName, fixture, nodeServer, waitFor } from '../support/mcp'

let manager: McpManager | null = null
afterEach(async () => {
  await manager?.shutdown()
  manager = null
})

function newManager(connectTimeoutMs?: number): McpManager {
  manager = new McpManager({
    launchStdio: stdioLauncher({ env: { PATH: '/nonexistent-cairn-dir' } }),
    clientVersion: 'test',
    restartBaseMs: 50,
    ...(connectTimeoutMs ? { connectTimeoutMs } : {}),
  })
  return manager
}

describe('the MCP doctor', () => {
  it('a command that is not found: says so, and lists the folders it searched', async () => {
    const m = newManager()
    m.apply({ ghost: { command: 'cairn-no-such-command-xyz' } })
    await m.settled(15_000)
    const ghost = byName(m.list(), 'ghost')
    expect(ghost.state).toBe('error')
    expect(ghost.error).toMatch(/"cairn-no-such-command-xyz" was not found/)
    expect(ghost.searchPath).toContain('/nonexistent-cairn-dir')
    expect(ghost.resolvedCommand).toBeNull()
  })

  it('a command that exits: its exit code and its last stderr lines', async () => {
    const m = newManager()
    m.apply({
      dies: {
        command: process.execPath,
        args: ['-e', 'console.error("boom"); process.exit(3)'],
      },
    })
    await waitFor(
      () => /gave up/.test(byName(m.list(), 'dies').error ?? ''),
      20_000,
      'the restarts to be given up',
    )
    const dies = byName(m.list(), 'dies')
    expect(dies.state).toBe('error')
    expect(dies.error).toMatch(
      /^The server exited with code 3 before it was ready\. Its last output: boom/,
    )
    expect(dies.stderrTail).toContain('boom')
    expect(dies.searchPath).not.toBeNull()
    expect(dies.commandLine).toMatchObject({
      command: process.execPath,
      args: ['-e', expect.any(String)],
    })
  })

  it('a server that never answers: timed out, and a hint that it may not be an MCP server', async () => {
    const m = newManager(600)
    m.apply({ mute: nodeServer(fixture('never-answers.mjs')) })
    await m.settled(10_000)
    const mute = byName(m.list(), 'mute')
    expect(mute.error).toMatch(/did not answer the MCP handshake within 1 s \(timed out\)/)
    expect(mute.error).toMatch(/speaks over stdio/)
  })
})
