/**
 * Issue 25, case 1: an authorization server's `authorization_endpoint` (or a server's page to
 * open) reaches the browser only when it is http or https, and a login only over https (http
 * on this machine only). Every host's opener goes through the same check: the opener itself,
 * `cairn mcp login`, browser mode's "Log in" (route `mcp.login` with no desktop dialog) and the
 * desktop app's opener. A refused address runs no program and says why.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openInBrowser } from '../../src-main/adapters/mcp/browser-opener'
import { nativeLoginOpener } from '../../src-main/electron/login-opener'
import { createAppHost } from '../../src-main/services/host/app-host'
import { runCli, startCliEnv } from '../support/cli'
import { tempDir, useCleanups } from '../support/oauth-client'
import { startOAuthServer } from '../support/oauth-server'

const cleanup = useCleanups()

/** A BROWSER that writes down what it was asked to open. */
function recordingBrowser(dir: string): { browser: string; opened: () => string[] } {
  const script = join(dir, 'record-browser.mjs')
  const log = join(dir, 'opened.txt')
  writeFileSync(
    script,
    `import { appendFileSync } from 'node:fs'\nappendFileSync(${JSON.stringify(log)}, process.argv[2] + '\\n')\n`,
  )
  return {
    browser: `${process.execPath} ${script}`,
    opened: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  }
}

describe('the one browser opener', () => {
  const launched: string[] = []
  const launcher = async (_command: string, args: string[]): Promise<void> => {
    launched.push(args.at(-1) ?? '')
  }

  it('refuses an address that is not http or https, running nothing', async () => {
    launched.length = 0
    for (const url of ['file:///etc/passwd', 'vscode://open?x', 'javascript:alert(1)', 'nonsense'])
      for (const purpose of ['page', 'login'] as const)
        await expect(openInBrowser(url, { purpose, env: {}, launcher })).rejects.toThrow(
          /only http and https addresses/,
        )
    expect(launched).toEqual([])
  })

  it('opens a login over https, or over http on this machine only', async () => {
    launched.length = 0
    await expect(
      openInBrowser('http://auth.example.com/authorize', { purpose: 'login', env: {}, launcher }),
    ).rejects.toThrow(/over https.*auth\.example\.com/)
    for (const ok of [
      'https://auth.example.com/authorize?a=1',
      'http://127.0.0.1:8080/authorize',
      'http://localhost:8080/authorize',
      'http://[::1]:8080/authorize',
    ])
      await openInBrowser(ok, { purpose: 'login', env: {}, launcher })
    // a page a server asks to open may be plain http
    await openInBrowser('http://docs.example.com/', { purpose: 'page', env: {}, launcher })
    expect(launched).toHaveLength(5)
  })

  it("the desktop app's opener goes through it: no dialog, no shell for a file: address", async () => {
    const shown: unknown[] = []
    const opened: string[] = []
    const open = nativeLoginOpener(
      { showMessageBox: async (a: unknown) => (shown.push(a), { response: 0 }) },
      { openExternal: async (url) => void opened.push(url) },
      () => null,
    )
    await expect(open('x', 'file:///etc/passwd')).rejects.toThrow(/only http and https/)
    await expect(open('x', 'http://auth.example.com/authorize')).rejects.toThrow(/over https/)
    expect(shown).toEqual([])
    expect(opened).toEqual([])
  })
})

describe('a login whose authorization server names a hostile address', () => {
  it('cairn mcp login opens nothing and says why', async () => {
    const auth = await startOAuthServer({
      challengeScope: 'read',
      authorizationEndpoint: 'file:///etc/passwd',
    })
    cleanup(() => auth.close())
    const dir = tempDir('cairn-login-address-', cleanup)
    const rec = recordingBrowser(dir)
    const cli = await startCliEnv({
      prefix: 'cairn-login-address-cli-',
      env: { BROWSER: rec.browser },
    })
    cleanup(cli.stop)
    expect((await runCli(['mcp', 'add', 'remote', '--url', auth.url], { env: cli.env })).code).toBe(
      0,
    )
    const login = await runCli(['mcp', 'login', 'remote'], {
      env: { ...cli.env, CAIRN_LOGIN_TIMEOUT_MS: '3000' },
    })
    expect(login.code).toBe(1)
    expect(login.stderr).toMatch(/file:\/\/\/etc\/passwd.*only http and https addresses/s)
    expect(rec.opened()).toEqual([])
  })

  it("browser mode's Log in (mcp.login) refuses it, and no browser runs", async () => {
    const auth = await startOAuthServer({
      challengeScope: 'read',
      authorizationEndpoint: 'vscode://evil/open',
    })
    cleanup(() => auth.close())
    const dir = tempDir('cairn-login-address-web-', cleanup)
    const rec = recordingBrowser(dir)
    const host = await createAppHost({
      dataDir: join(dir, 'data'),
      hostKind: 'web',
      version: 'test',
      env: { BROWSER: rec.browser },
    })
    cleanup(() => host.shutdown())
    const call = async (route: string, input: unknown) =>
      (await host.router.handle(route, input)) as
        { ok: true; data: unknown } | { ok: false; error: { message: string } }
    expect((await call('mcp.add', { name: 'remote', config: { url: auth.url } })).ok).toBe(true)
    expect((await call('mcp.update', { name: 'remote', enabled: true })).ok).toBe(true)
    const r = await call('mcp.login', { name: 'remote' })
    expect(r.ok).toBe(false)
    expect(!r.ok && r.error.message).toMatch(/vscode:\/\/evil\/open.*only http and https/s)
    // a refusal runs nothing: give a launched browser time to show up
    await new Promise((res) => setTimeout(res, 300))
    expect(rec.opened()).toEqual([])
  })
})
