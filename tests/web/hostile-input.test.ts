/**
 * Browser mode under hostile input: malformed cookies, headers, request targets, query
 * strings and WebSocket frames get an answer (4xx or an error result), never a crash, and
 * the host keeps answering afterwards. Random cases come from a fixed-start generator, so a
 * failure repeats.
 */
import { connect } from 'node:net'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { startWebServer, type WebServer } from '../../src-main/web/server'
import { sessionCookie, unwrap, wsBridge } from '../support/bridges'

let dir: string
let host: AppHost
let web: WebServer
let token: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-web-fuzz-'))
  const staticDir = join(dir, 'renderer')
  mkdirSync(staticDir)
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Cairn</title>')
  host = await createAppHost({ dataDir: join(dir, 'data'), hostKind: 'web', version: 't', env: {} })
  web = await startWebServer({ host, staticDir, port: 0 })
  token = new URL(web.url).searchParams.get('token')!
})
afterAll(async () => {
  await web.close()
  await host.shutdown()
  rmSync(dir, { recursive: true, force: true })
})

function random(start: number): () => number {
  let a = start >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const NASTY = [
  '%',
  '%%',
  '%E0%A4%A',
  '%00',
  '\u00ff',
  '=',
  ';',
  '"',
  '\\',
  '..',
  '//',
  '[',
  '?',
  '#',
  '&',
  '\t',
  ' ',
]

function junk(next: () => number, max = 40): string {
  let s = ''
  const n = Math.floor(next() * max)
  for (let i = 0; i < n; i++) {
    const r = next()
    if (r < 0.3) s += NASTY[Math.floor(next() * NASTY.length)]
    else if (r < 0.4) s += String.fromCharCode(0x80 + Math.floor(next() * 0x7f))
    else s += String.fromCharCode(0x21 + Math.floor(next() * 0x5e))
  }
  return s
}

/** Sends raw bytes and reads the status line of the answer (0 when the host hung up). */
function raw(bytes: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(web.port, '127.0.0.1')
    let got = ''
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1')
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got)
      if (m) {
        socket.destroy()
        resolve(Number(m[1]))
      }
    })
    socket.on('close', () => resolve(0))
    socket.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNRESET' ? resolve(0) : reject(e),
    )
    socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes)
  })
}

function request(target: string, headers: Record<string, string>, upgrade = false): string {
  const lines = [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${web.port}`]
  if (upgrade) {
    lines.push('Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13')
    lines.push(
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      `Origin: http://127.0.0.1:${web.port}`,
    )
  } else lines.push('Connection: close')
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  return `${lines.join('\r\n')}\r\n\r\n`
}

async function stillAnswers(): Promise<void> {
  const b = await wsBridge(web.url)
  expect(unwrap(await b.request('app.info', {})).host).toBe('web')
  await b.close()
}

describe('browser mode under malformed input', () => {
  it('answers a cookie that does not decode with 401, on the page and on the WebSocket', async () => {
    for (const name of ['cairn_session', `cairn_session_${web.port}`]) {
      expect(await raw(request('/', { cookie: `${name}=%` }))).toBe(401)
      expect(await raw(request('/ws', { cookie: `${name}=%` }, true))).toBe(401)
      expect(await raw(request(`/?token=${token}`, { cookie: `${name}=%E0%A4%A` }))).toBe(303)
    }
    await stillAnswers()
  })

  it('redirects the token exchange only to "/", whatever the path', async () => {
    for (const path of [
      '/.//evil.example',
      '//evil.example',
      '/\\evil.example',
      '/%2f%2fevil.example',
    ]) {
      const res = await fetch(`http://127.0.0.1:${web.port}${path}?token=${token}`, {
        redirect: 'manual',
      })
      if (res.status === 303) expect(res.headers.get('location')).toBe('/')
      else expect(res.status).toBe(400)
    }
  })

  it('names the cookie after its port', async () => {
    expect((await sessionCookie(web.url)).startsWith(`cairn_session_${web.port}=`)).toBe(true)
  })

  it('answers random cookies, headers, paths and query strings with a status below 500', async () => {
    const next = random(20261124)
    const cookie = await sessionCookie(web.url)
    for (let i = 0; i < 300; i++) {
      const target = `/${junk(next)}?${junk(next)}=${junk(next)}&token=${next() < 0.2 ? token : junk(next)}`
      const headers: Record<string, string> = {
        cookie:
          next() < 0.5
            ? `${junk(next)}=${junk(next)}; ${cookie}`
            : `cairn_session_${web.port}=${junk(next)}`,
      }
      if (next() < 0.5) headers[`x-${junk(next, 10).replace(/[^a-z]/g, '') || 'a'}`] = junk(next)
      if (next() < 0.2) headers['origin'] = junk(next)
      const status = await raw(request(target.replace(/[\r\n ]/g, '%20'), headers, next() < 0.3))
      expect(status === 0 || (status >= 100 && status < 500)).toBe(true)
    }
    await stillAnswers()
  })

  it('answers malformed HTTP with 400 or hangs up, and keeps serving', async () => {
    const cases = [
      'GARBAGE\r\n\r\n',
      'GET\r\n\r\n',
      `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`,
      `GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`,
      `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nCookie: ${'a'.repeat(20000)}\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nX: ${'b'.repeat(100_000)}\r\n\r\n`,
      Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10]),
      'GET / HTTP/1.1\r\nConnection: close\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
      `BREW /?token=x HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`,
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 99\r\nOrigin: http://127.0.0.1:${web.port}\r\n\r\n`,
    ]
    for (const c of cases) {
      const status = await raw(c)
      expect(status === 0 || (status >= 400 && status < 500)).toBe(true)
    }
    await stillAnswers()
  })

  it('answers every WebSocket frame that is not a request object with an error, and stays up', async () => {
    const cookie = await sessionCookie(web.url)
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, {
      headers: { cookie, origin: `http://127.0.0.1:${web.port}` },
    })
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const answers: { id: unknown; result: { ok: boolean; error?: { code: string } } }[] = []
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as (typeof answers)[number] & { event?: string }
      if (!m.event) answers.push(m)
    })
    const next = random(7)
    const frames: (string | Buffer)[] = [
      'null',
      '[]',
      '1',
      '"x"',
      'true',
      '{',
      '',
      'nul',
      '{"id":{},"route":5}',
      '{"route":"__proto__"}',
      '{"route":"constructor","input":null}',
      '{"route":"toString"}',
      '{"id":1,"route":"sessions.list","input":"x"}',
      '{"id":2,"route":"sessions.get","input":{"id":{"$gt":""}}}',
      JSON.stringify({ id: 3, route: 'sessions.search', input: { query: '%'.repeat(5000) } }),
      Buffer.from([0xff, 0x00, 0x7b]),
    ]
    for (let i = 0; i < 100; i++)
      frames.push(
        next() < 0.5
          ? junk(next, 200)
          : `{"id":${i},"route":"${junk(next, 20).replace(/["\\]/g, '')}","input":${junk(next, 20)}}`,
      )
    for (const f of frames) ws.send(f, { binary: Buffer.isBuffer(f) })
    await expect.poll(() => answers.length, { timeout: 30_000 }).toBe(frames.length)
    expect(answers.every((a) => a.result.ok === false)).toBe(true)
    expect(answers.filter((a) => a.id === null).length).toBeGreaterThan(0)
    ws.close()
    await stillAnswers()
  })
})
