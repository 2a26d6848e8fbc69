/** The desktop app and browser mode serve the renderer under the same CSP and file types. */
import { request } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveApp } from '../../src-main/electron/protocol'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { startWebServer, type WebServer } from '../../src-main/web/server'

let dir: string
let staticDir: string
let host: AppHost
let web: WebServer
let cookie: string

const FILES = ['index.html', 'assets/app.js', 'assets/font.woff', 'assets/re2.wasm', 'Logo.SVG']

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-page-policy-'))
  staticDir = join(dir, 'renderer')
  mkdirSync(join(staticDir, 'assets'), { recursive: true })
  for (const f of FILES) writeFileSync(join(staticDir, f), `content of ${f}`)
  host = await createAppHost({ dataDir: join(dir, 'data'), hostKind: 'web', version: 't', env: {} })
  web = await startWebServer({ host, staticDir, port: 0 })
  const token = new URL(web.url).searchParams.get('token') ?? ''
  const exchange = await get(`/?token=${token}`)
  cookie = String(exchange.headers['set-cookie']).split(';')[0] ?? ''
})
afterAll(async () => {
  await web.close()
  await host.shutdown()
  rmSync(dir, { recursive: true, force: true })
})

describe('one page policy for both hosts', () => {
  it('sends the same Content-Security-Policy and Content-Type for every file', async () => {
    for (const file of FILES) {
      const desktop = await serveApp(staticDir, new Request(`app://cairn/${file}`))
      const browser = await get(`/${file}`, { cookie })
      expect(desktop.status, file).toBe(200)
      expect(browser.status, file).toBe(200)
      expect(browser.headers['content-security-policy'], file).toBe(
        desktop.headers.get('content-security-policy'),
      )
      expect(browser.headers['content-type'], file).toBe(desktop.headers.get('content-type'))
    }
  })

  it("is a strict policy: scripts from 'self' only, fonts and images also inline", async () => {
    const page = await get('/', { cookie })
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("font-src 'self' data:")
    expect(csp).toContain("object-src 'none'")
    expect((await get('/assets/re2.wasm', { cookie })).headers['content-type']).toBe(
      'application/wasm',
    )
  })
})
