import { request } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { startWebServer, type WebServer } from '../../src-main/web/server'
import { sessionCookie, unwrap, wsBridge } from '../support/bridges'

let dir: string
let host: AppHost
let web: WebServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-web-sec-'))
  const staticDir = join(dir, 'renderer')
  mkdirSync(staticDir)
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Cairn</title>')
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer')
  host = await createAppHost({ dataDir: join(dir, 'data'), hostKind: 'web', version: 't', env: {} })
  web = await startWebServer({ host, staticDir, port: 0 })
})
afterAll(async () => {
  await web.close()
  await host.shutdown()
  rmSync(dir, { recursive: true, force: true })
})

/** A raw GET, so that Host and the path are sent exactly as given. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, headers }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('browser mode security', () => {
  it('prints an address on 127.0.0.1 with a long random token', () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/)
  })

  it('refuses the page without the token, or with a wrong one', async () => {
    const none = await get('/')
    expect(none.status).toBe(401)
    expect(none.body).toMatch(/needs the token/)
    expect(none.headers['set-cookie']).toBeUndefined()
    expect((await get('/?token=wrong')).status).toBe(401)
    const token = new URL(web.url).searchParams.get('token')!
    expect((await get(`/?token=${token.slice(0, -1)}`)).status).toBe(401)
  })

  it('exchanges the token for an HttpOnly, SameSite=Strict cookie and removes it from the address', async () => {
    const token = new URL(web.url).searchParams.get('token')!
    const res = await get(`/?x=1&token=${token}`)
    expect(res.status).toBe(303)
    expect(res.headers['location']).toBe('/')
    const cookie = String(res.headers['set-cookie'])
    expect(cookie.startsWith(`cairn_session_${web.port}=`)).toBe(true)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).not.toContain(token)
    const page = await get('/', { cookie: cookie.split(';')[0]! })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Cairn</title>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['referrer-policy']).toBe('no-referrer')
  })

  it('refuses a foreign Host header (DNS rebinding), even with the token', async () => {
    const token = new URL(web.url).searchParams.get('token')!
    const res = await get(`/?token=${token}`, { host: `attacker.example:${web.port}` })
    expect(res.status).toBe(421)
  })

  it('serves nothing outside the renderer folder', async () => {
    const cookie = await sessionCookie(web.url)
    expect((await get('/..%2fsecret.txt', { cookie })).status).toBe(404)
    expect((await get('/%2e%2e/secret.txt', { cookie })).status).toBe(404)
    expect((await get('/../secret.txt', { cookie })).body).not.toContain('outside the renderer')
  })

  it('refuses a WebSocket without the cookie, from a foreign Origin, or with a foreign Host', async () => {
    const cookie = await sessionCookie(web.url)
    await expect(wsBridge(web.url, { cookie: 'cairn_session=forged' })).rejects.toThrow(/401/)
    await expect(wsBridge(web.url, { cookie, origin: 'https://attacker.example' })).rejects.toThrow(
      /403/,
    )
    await expect(
      wsBridge(web.url, { cookie, origin: `http://127.0.0.1:${web.port + 1}` }),
    ).rejects.toThrow(/403/)
    const ok = await wsBridge(web.url, { cookie })
    expect(unwrap(await ok.request('app.info', {})).host).toBe('web')
    await ok.close()
  })

  it('parses every WebSocket request with the same schemas, and answers garbage with an error', async () => {
    const b = await wsBridge(web.url)
    const bad = await b.request('sessions.rename', { id: '', title: 'x' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    await b.close()
  })
})
