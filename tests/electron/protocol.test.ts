import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Protocol } from 'electron'
import {
  handleAppProtocol,
  registerAppScheme,
  resolveAppPath,
  serveApp,
} from '../../src-main/electron/protocol'
import { mimeType } from '../../src-main/services/host/page-policy'

let root: string
const SECRET = 'top secret: must never be served'

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-protocol-'))
  writeFileSync(join(dir, 'secret.txt'), SECRET)
  root = join(dir, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Cairn</title>')
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)')
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}')
})

const get = (url: string, method = 'GET') => serveApp(root, new Request(url, { method }))

describe('the app: protocol', () => {
  it('is registered as a standard, secure scheme with fetch support', () => {
    const protocol = { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() }
    registerAppScheme(protocol as unknown as Protocol)
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ])
    handleAppProtocol(protocol as unknown as Protocol, root, () => Promise.resolve(null))
    expect(protocol.handle).toHaveBeenCalledWith('app', expect.any(Function))
  })

  it('serves index.html (also for /) as text/html with our CSP', async () => {
    for (const url of ['app://cairn/index.html', 'app://cairn/']) {
      const res = await get(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await res.text()).toContain('<title>Cairn</title>')
    }
  })

  it('serves scripts and styles with their MIME types', async () => {
    const js = await get('app://cairn/assets/index-abc.js')
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await js.text()).toBe('console.log(1)')
    const css = await get('app://cairn/assets/index-abc.css')
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(mimeType('x.woff2')).toBe('font/woff2')
    expect(mimeType('x.SVG')).toBe('image/svg+xml')
    expect(mimeType('x.unknown')).toBe('application/octet-stream')
  })

  it.each([
    'app://cairn/../secret.txt',
    'app://cairn/%2e%2e/secret.txt',
    'app://cairn/..%2fsecret.txt',
    'app://cairn/assets/..%2f..%2fsecret.txt',
    'app://cairn/..%5csecret.txt',
    'app://cairn/%2E%2E%5C%2E%2E%5Csecret.txt',
    'app://cairn/%252e%252e/secret.txt',
    'app://cairn/index.html%00.js',
    'app://cairn/%E0%A4%A',
    'app://other/index.html',
    'app://cairn/missing.js',
  ])('refuses %s with 404 and never serves a file outside the renderer', async (url) => {
    const res = await get(url)
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain(SECRET)
  })

  it('names no file outside the root for any traversal attempt', () => {
    // the URL parser already folds `..` and `%2e%2e` segments into the root
    expect(resolveAppPath(root, 'app://cairn/%2e%2e/secret.txt')).toBe(join(root, 'secret.txt'))
    // what only decoding reveals is refused outright
    for (const url of [
      'app://cairn/..%2f..%2fetc/passwd',
      'app://cairn/..%5c..%5csecret.txt',
      'app://cairn/C:%5cWindows',
    ]) {
      expect(resolveAppPath(root, url)).toBeNull()
    }
    expect(resolveAppPath(root, 'app://cairn/assets/index-abc.js')).toBe(
      join(root, 'assets', 'index-abc.js'),
    )
  })

  it('answers only GET and HEAD', async () => {
    expect((await get('app://cairn/index.html', 'POST')).status).toBe(405)
    const head = await get('app://cairn/index.html', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})
