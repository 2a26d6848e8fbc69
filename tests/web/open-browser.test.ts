/**
 * Issue 25, case 2: `npm run web` opens the browser without its token on a command line
 * (any local user can read those in the process list). The opener gets the path of a private
 * page in the data directory (mode 600, in a folder of mode 700) that sends the browser on
 * with a one-time code; the code is exchanged once for the session cookie, then the page is
 * removed. The host runs as a user runs it (`src-main/web/index.ts` in its own process), with
 * the system's opener (`xdg-open`) replaced by a script that writes down its arguments.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TOKEN_FILE } from '../../src-main/web/token-file'
import { unwrap, wsBridge } from '../support/bridges'

let dir: string
const children = new Set<ChildProcess>()
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-web-open-'))
})
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

async function until<T>(get: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = get()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe.skipIf(process.platform !== 'linux')('npm run web opening the browser', () => {
  it('puts no secret on the command line, and the page it opens works once', async () => {
    const bin = join(dir, 'bin')
    mkdirSync(bin)
    const argsFile = join(dir, 'opener-args.txt')
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > ${argsFile}\n`)
    chmodSync(join(bin, 'xdg-open'), 0o755)
    const data = join(dir, 'data')
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src-main/web/index.ts', '--port', '0', '--data-dir', data],
      {
        env: {
          PATH: `${bin}:${process.env['PATH']}`,
          HOME: dir,
          CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    children.add(child)
    let out = ''
    let err = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    try {
      const printed = await until(() => /Cairn is running at (\S+)/.exec(out)?.[1], 'the address')
      const opened = await until(
        () => (existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim() : undefined),
        'the opener',
      )
      const token = readFileSync(join(data, TOKEN_FILE), 'utf8').trim()
      // the command line names a page, not the address with its token
      expect(opened).not.toContain(token)
      expect(opened).not.toMatch(/token=/)
      expect(opened).toMatch(/^file:\/\//)
      const page = fileURLToPath(opened)
      expect(page.startsWith(data)).toBe(true)
      expect(statSync(page).mode & 0o777).toBe(0o600)
      expect(statSync(data).mode & 0o777).toBe(0o700)
      const html = readFileSync(page, 'utf8')
      expect(html).not.toContain(token)
      const target = /url=(http:\/\/127\.0\.0\.1:\d+\/\?code=[A-Za-z0-9_-]+)/.exec(html)?.[1]
      expect(target).toBeDefined()
      expect(new URL(target!).port).toBe(new URL(printed).port)

      // the browser follows it: the code becomes the session cookie
      const first = await fetch(target!, { redirect: 'manual' })
      expect(first.status).toBe(200)
      const cookie = first.headers.get('set-cookie')?.split(';')[0]
      expect(cookie).toMatch(/^cairn_session_\d+=/)
      expect(await first.text()).toMatch(/http-equiv="refresh" content="0;url=\/"/)
      const bridge = await wsBridge(printed, { cookie: cookie! })
      expect(unwrap(await bridge.request('app.info', {})).name).toBe('Cairn')
      await bridge.close()
      // once: a second use is refused, and the page is gone
      expect((await fetch(target!, { redirect: 'manual' })).status).toBe(401)
      await until(() => (existsSync(page) ? undefined : true), 'the page to be removed')
      // the printed address (not on any command line) still works
      expect((await fetch(printed, { redirect: 'manual' })).status).toBe(303)
      expect(err).toBe('')
    } finally {
      child.kill('SIGTERM')
    }
  }, 60_000)
})
