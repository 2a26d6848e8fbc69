/**
 * Browser mode's token is kept per data directory: a restart keeps the printed address and
 * an open tab's cookie working; `--new-token` rotates it; a busy port says what to do.
 * The host runs as a user runs it (`src-main/web/index.ts` in its own process).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  chmodSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadWebToken, sessionFromToken, TOKEN_FILE } from '../../src-main/web/token-file'
import { sessionCookie, unwrap, wsBridge } from '../support/bridges'

let dir: string
const children = new Set<ChildProcess>()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-web-token-'))
})
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

interface Running {
  url: string
  stop(): Promise<void>
}

/** Starts `npm run web`'s entry; resolves with the printed address, or rejects with stderr. */
function startHost(dataDir: string, args: string[] = []): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/web/index.ts', '--no-open', '--data-dir', dataDir, ...args],
    {
      env: { PATH: process.env['PATH'], HOME: dir, CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  children.add(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /Cairn is running at (\S+)/.exec(out)
      if (m?.[1])
        resolve({
          url: m[1],
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done())
              child.kill('SIGTERM')
            }),
        })
    })
    child.once('exit', (code) => reject(new Error(`exit ${code}: ${err}`)))
  })
}

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((r) => probe.close(() => r()))
  return port
}

const authStatus = async (url: string, cookie: string): Promise<number> =>
  (await fetch(new URL('/auth', url), { headers: { cookie } })).status

describe('the token file', () => {
  it('is made once with mode 600, then read back; rotate makes a new one', () => {
    const data = join(dir, 'unit')
    const first = loadWebToken(data)
    expect(first.created).toBe(true)
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first.session).toBe(sessionFromToken(first.token))
    expect(first.session).not.toBe(first.token)
    if (process.platform !== 'win32')
      expect(statSync(join(data, TOKEN_FILE)).mode & 0o777).toBe(0o600)
    const again = loadWebToken(data)
    expect(again).toEqual({ ...first, created: false })
    const rotated = loadWebToken(data, { rotate: true })
    expect(rotated.created).toBe(true)
    expect(rotated.token).not.toBe(first.token)
    expect(rotated.session).not.toBe(first.session)
    expect(readFileSync(join(data, TOKEN_FILE), 'utf8').trim()).toBe(rotated.token)
  })

  it('narrows a widened mode back to 600 with a warning, and replaces a damaged file', () => {
    const data = join(dir, 'modes')
    const { token } = loadWebToken(data)
    const warnings: string[] = []
    if (process.platform !== 'win32') {
      chmodSync(join(data, TOKEN_FILE), 0o644)
      expect(loadWebToken(data, { onWarning: (m) => warnings.push(m) }).token).toBe(token)
      expect(statSync(join(data, TOKEN_FILE)).mode & 0o777).toBe(0o600)
      expect(warnings.join()).toMatch(/readable by others/)
    }
    writeFileSync(join(data, TOKEN_FILE), 'not a token')
    const fresh = loadWebToken(data)
    expect(fresh.created).toBe(true)
    expect(fresh.token).not.toBe(token)
  })
})

describe('restarting browser mode', () => {
  it('keeps the address and the cookie of an open tab; --new-token invalidates both', async () => {
    const data = join(dir, 'host')
    mkdirSync(data, { recursive: true })
    // a tab stays on its address, and the cookie is named after the port: restart on the same one
    const port = await freePort()
    const first = await startHost(data, ['--port', String(port)])
    const cookie = await sessionCookie(first.url)
    expect(await authStatus(first.url, cookie)).toBe(204)
    await first.stop()

    const second = await startHost(data, ['--port', String(port)])
    expect(new URL(second.url).searchParams.get('token')).toBe(
      new URL(first.url).searchParams.get('token'),
    )
    // the tab's cookie still works, for the page and for its WebSocket
    expect(await authStatus(second.url, cookie)).toBe(204)
    const bridge = await wsBridge(second.url, { cookie })
    expect(unwrap(await bridge.request('app.info', {})).name).toBe('Cairn')
    await bridge.close()
    await second.stop()

    const third = await startHost(data, ['--port', String(port), '--new-token'])
    expect(new URL(third.url).searchParams.get('token')).not.toBe(
      new URL(first.url).searchParams.get('token'),
    )
    expect(await authStatus(third.url, cookie)).toBe(401)
    await expect(wsBridge(third.url, { cookie })).rejects.toThrow(/401/)
    const old = new URL(first.url)
    old.port = new URL(third.url).port
    expect((await fetch(old, { redirect: 'manual' })).status).toBe(401)
    await third.stop()
  }, 60_000)

  it('says a busy port is in use and suggests --port 0', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
    const port = (blocker.address() as { port: number }).port
    try {
      await expect(startHost(join(dir, 'busy'), ['--port', String(port)])).rejects.toThrow(
        /port \d+ is in use[\s\S]*--port 0/,
      )
    } finally {
      blocker.close()
    }
  }, 30_000)
})
