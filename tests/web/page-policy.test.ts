/**
 * The desktop app and browser mode serve the renderer under the same CSP and file types,
 * and tools' views (MCP Apps) under the views' own policy, the only frames the page allows.
 */
import { request } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveApp } from '../../src-main/electron/protocol'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { ViewDocuments } from '../../src-main/services/host/view-documents'
import { startWebServer, type WebServer } from '../../src-main/web/server'

let dir: string
let staticDir: string
let host: AppHost
let web: WebServer
let cookie: string

const FILES = ['index.html', 'assets/app.js', 'assets/font.woff', 'assets/re2.wasm', 'Logo.SVG']

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: web.port, path, headers }, (res) => {
        let body = ''
        res.on('data', (d: Buffer) => (body += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      req.on('error', reject)
      req.end()
    },
  )
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
      // the same policy, each naming its own origin as the one place frames (views) come from
      expect(browser.headers['content-security-policy'], file).toBe(
        desktop.headers
          .get('content-security-policy')
          ?.replace('app://cairn/mcp-view/', `http://127.0.0.1:${web.port}/mcp-view/`),
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
    // the only frames: tools' views, from the views' path on the page's own origin
    expect(csp).toContain(`frame-src http://127.0.0.1:${web.port}/mcp-view/;`)
    expect((await get('/assets/re2.wasm', { cookie })).headers['content-type']).toBe(
      'application/wasm',
    )
  })
})

describe("a tool's view", () => {
  const VIEW = '<!doctype html><p id="v">a view</p><script>document.title = "v"</script>'
  const csp = {
    connectDomains: ['https://api.example.com'],
    resourceDomains: [],
    frameDomains: [],
    baseUriDomains: [],
  }

  it('is served by both hosts at its path, under its own policy, sandboxed, framed only by the page', async () => {
    const path = host.views.add(VIEW, csp)
    expect(path).toMatch(/^\/mcp-view\/[\w-]{32}$/)
    const browser = await get(path, { cookie })
    expect(browser.status).toBe(200)
    expect(browser.body).toBe(VIEW)
    const policy = String(browser.headers['content-security-policy'])
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain('connect-src https://api.example.com;')
    expect(policy).toContain(`frame-ancestors http://127.0.0.1:${web.port}`)
    expect(policy).toContain('sandbox allow-scripts allow-forms')
    expect(policy).not.toContain("'self'")
    // our page's framing ban is not sent with it: the page frames it
    expect(browser.headers['x-frame-options']).toBeUndefined()

    const views = new ViewDocuments()
    const desktopPath = views.add(VIEW, csp)
    const desktop = await serveApp(staticDir, new Request(`app://cairn${desktopPath}`), () =>
      Promise.resolve(views),
    )
    expect(desktop.status).toBe(200)
    expect(await desktop.text()).toBe(VIEW)
    expect(desktop.headers.get('content-security-policy')).toBe(
      policy.replace(`http://127.0.0.1:${web.port}`, 'app://cairn'),
    )
  })

  it("needs the page's session in browser mode, and an unknown token is not found", async () => {
    const path = host.views.add(VIEW, csp)
    expect((await get(path)).status).toBe(401)
    expect((await get('/mcp-view/not-a-token', { cookie })).status).toBe(404)
    const desktop = await serveApp(staticDir, new Request('app://cairn/mcp-view/nope'), () =>
      Promise.resolve(new ViewDocuments()),
    )
    expect(desktop.status).toBe(404)
  })
})
