/**
 * `cairn mcp login` with BROWSER set to a script that follows the authorization address,
 * against a scripted authorization server and protected MCP server: the tokens land in the
 * secrets store (not the settings), survive into the next run, stay out of the turn logs,
 * and `cairn mcp logout` brings back "needs login".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import { startCliEnv, runCli } from '../support/cli'
import { fixture } from '../support/mcp'
import { startOAuthServer, type OAuthServer } from '../support/oauth-server'
import { textReply, toolCallsReply, type ScriptedServer } from '../support/openai-server'

let auth: OAuthServer
let model: ScriptedServer
let dir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  auth = await startOAuthServer({ challengeScope: 'read' })
  ;({
    server: model,
    dir,
    env,
    stop,
  } = await startCliEnv({
    prefix: 'cairn-cli-login-',
    models: ['m'],
    noLocalServers: false,
    env: { BROWSER: `${process.execPath} ${fixture('oauth-browser.mjs')}` },
  }))
})
afterEach(async () => {
  await auth.close()
  await stop()
})

async function list(): Promise<McpServerInfo> {
  const r = await runCli(['mcp', 'list', '--json'], { env })
  expect(r.code).toBe(0)
  return (JSON.parse(r.stdout) as { servers: McpServerInfo[] }).servers[0]!
}

function filesUnder(d: string): string[] {
  return readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

describe('cairn mcp login', () => {
  it('logs in through the browser, keeps the token for the next run, and logs out', async () => {
    expect((await runCli(['mcp', 'add', 'remote', '--url', auth.url], { env })).code).toBe(0)
    const before = await list()
    expect(before.state).toBe('needs-login')
    expect(before.error).toMatch(/cairn mcp login remote/)
    // a turn meanwhile runs without the server's tools, and says why
    model.enqueue(textReply('hello'))
    const turn = await runCli(['hi'], { env })
    expect(turn.code).toBe(0)
    expect(turn.stderr).toMatch(/Waiting for you to log in.*: remote/)

    const login = await runCli(['mcp', 'login', 'remote'], { env })
    expect(login.stderr).toContain(`${auth.origin}/authorize?`)
    expect(login.stdout).toBe('Logged in to "remote".\n')
    expect(login.code).toBe(0)

    const token = auth.issued[0]!
    const secrets = join(dir, 'data', 'secrets.json')
    expect(readFileSync(secrets, 'utf8')).toContain(token)
    expect(statSync(secrets).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'data', 'settings.json'), 'utf8')).not.toContain(token)

    // a new process: the token comes from the secrets store
    const after = await list()
    expect(after.state).toBe('ready')
    expect(after.tools.map((t) => t.name)).toContain('whoami')

    const out = await runCli(['mcp', 'logout', 'remote'], { env })
    expect(out.stdout).toMatch(/Logged out of "remote"/)
    expect(readFileSync(secrets, 'utf8')).not.toContain(token)
    expect((await list()).state).toBe('needs-login')
  })

  it('keeps the token out of the turn logs, even when the server repeats it', async () => {
    expect((await runCli(['mcp', 'add', 'remote', '--url', auth.url], { env })).code).toBe(0)
    expect((await runCli(['mcp', 'login', 'remote'], { env })).code).toBe(0)
    model.enqueue(toolCallsReply([{ name: 'remote__leak', arguments: '{}' }]), () =>
      textReply('done'),
    )
    const turn = await runCli(['--approve', 'all', 'call leak'], { env })
    expect(turn.code).toBe(0)
    const token = auth.issued[0]!
    // the server did repeat it, to the model (the second request carries the tool result)
    expect(JSON.stringify(model.requests[1]?.body)).toContain(token)
    const logs = filesUnder(join(dir, 'data', 'logs'))
    expect(logs.length).toBeGreaterThan(0)
    const text = logs.map((f) => readFileSync(f, 'utf8')).join('\n')
    expect(text).toContain('you sent: Bearer [REDACTED]')
    expect(text).not.toContain(token)
  })

  it('fails with a clear message when the browser never comes back', async () => {
    expect((await runCli(['mcp', 'add', 'remote', '--url', auth.url], { env })).code).toBe(0)
    const r = await runCli(['mcp', 'login', 'remote'], {
      env: { ...env, BROWSER: 'true', CAIRN_LOGIN_TIMEOUT_MS: '500' },
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/The login to "remote" failed: .*timed out/)
  })
})
