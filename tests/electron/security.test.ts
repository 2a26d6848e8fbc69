import { describe, expect, it, vi } from 'vitest'
import type { Session, WebContents } from 'electron'
import {
  guardWebContents,
  hardenSession,
  isExternalAllowed,
  isTrustedSender,
  originOf,
  trustedOrigins,
  withCsp,
} from '../../src-main/electron/security'
import { CSP } from '../../src-main/services/host/page-policy'
import { FakeWebContents, fakeSession } from './electron-mock'

describe('origins and senders', () => {
  it('puts together the origin of app:, http: and https: URLs only', () => {
    expect(originOf('app://cairn/index.html')).toBe('app://cairn')
    expect(originOf('http://localhost:5173/src/main.tsx')).toBe('http://localhost:5173')
    expect(originOf('file:///etc/passwd')).toBeNull()
    expect(originOf('javascript:alert(1)')).toBeNull()
    expect(originOf('not a url')).toBeNull()
  })

  it('trusts app://cairn, and the dev server only when given', () => {
    expect(trustedOrigins(undefined)).toEqual(['app://cairn'])
    expect(trustedOrigins('http://localhost:5173')).toEqual([
      'app://cairn',
      'http://localhost:5173',
    ])
    const dev = trustedOrigins('http://localhost:5173')
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: null }, dev)).toBe(true)
    expect(isTrustedSender({ url: 'http://localhost:5174/', parent: null }, dev)).toBe(false)
    expect(isTrustedSender({ url: 'http://127.0.0.1:5173/', parent: null }, dev)).toBe(false)
    expect(isTrustedSender(undefined, dev)).toBe(false)
  })
})

describe('links that may leave the app', () => {
  it.each([
    ['https://example.com/docs', true],
    ['mailto:someone@example.com', true],
    ['http://example.com/', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['app://cairn/index.html', false],
    ['smb://server/share', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => expect(isExternalAllowed(url)).toBe(allowed))
})

describe('guardWebContents', () => {
  function guarded() {
    const contents = new FakeWebContents()
    const openExternal = vi.fn(async (_url: string) => {})
    guardWebContents(contents as unknown as WebContents, ['app://cairn'], openExternal)
    return { contents, openExternal }
  }
  const navigation = (url: string) => ({ url, preventDefault: vi.fn() })

  it('denies every new window and opens only https: and mailto: outside', () => {
    const { contents, openExternal } = guarded()
    const open = (url: string) => contents.windowOpenHandler!({ url })
    for (const url of [
      'https://example.com/',
      'mailto:a@b.c',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'http://example.com/',
      'app://cairn/x',
    ]) {
      expect(open(url)).toEqual({ action: 'deny' })
    }
    expect(openExternal.mock.calls.map((c) => c[0])).toEqual([
      'https://example.com/',
      'mailto:a@b.c',
    ])
  })

  it('prevents navigation away from our origin (a https: link opens in the browser)', () => {
    const { contents, openExternal } = guarded()
    const ours = navigation('app://cairn/index.html#/settings')
    contents.emit('will-navigate', ours)
    expect(ours.preventDefault).not.toHaveBeenCalled()
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'http://localhost:5173/',
      'javascript:void 0',
    ]) {
      const away = navigation(url)
      contents.emit('will-navigate', away)
      expect(away.preventDefault).toHaveBeenCalled()
    }
    expect(openExternal.mock.calls.map((c) => c[0])).toEqual(['https://evil.example/'])
  })

  it('refuses <webview>', () => {
    const { contents } = guarded()
    const attach = { preventDefault: vi.fn() }
    contents.emit('will-attach-webview', attach)
    expect(attach.preventDefault).toHaveBeenCalled()
  })
})

describe('the session', () => {
  it('denies every permission request and check except writing to the clipboard', () => {
    const s = fakeSession()
    hardenSession(s as unknown as Session)
    const request = (permission: string): unknown => {
      const callback = vi.fn()
      s.permissionRequest!(...([{}, permission, callback, {}] as never[]))
      expect(callback).toHaveBeenCalledTimes(1)
      return callback.mock.calls[0]![0]
    }
    const check = (permission: string): unknown =>
      s.permissionCheck!(...([{}, permission, 'app://cairn', {}] as never[]))
    const denied = [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'Clipboard-Sanitized-Write',
      '',
    ]
    for (const permission of denied) {
      expect(request(permission)).toBe(false)
      expect(check(permission)).toBe(false)
    }
    expect(request('clipboard-sanitized-write')).toBe(true)
    expect(check('clipboard-sanitized-write')).toBe(true)
    expect(s.devicePermission!(...([{}] as never[]))).toBe(false)
  })

  it("puts our CSP (script-src 'self') on every response, replacing the server's", () => {
    const s = fakeSession()
    hardenSession(s as unknown as Session)
    const callback = vi.fn()
    s.headersReceived!(
      ...([
        {
          url: 'http://localhost:5173/',
          responseHeaders: {
            'content-security-policy': ["script-src 'unsafe-eval' *"],
            'Content-Type': ['text/html'],
          },
        },
        callback,
      ] as never[]),
    )
    const headers = callback.mock.calls[0]![0].responseHeaders as Record<string, string[]>
    expect(headers['Content-Type']).toEqual(['text/html'])
    expect(headers['content-security-policy']).toBeUndefined()
    expect(headers['Content-Security-Policy']).toEqual([CSP])
  })

  it("has a CSP that allows scripts from 'self' only, and no plugins or framing", () => {
    const directives = new Map(
      CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/)
        return [name!, values]
      }),
    )
    expect(directives.get('script-src')).toEqual(["'self'"])
    expect(directives.get('default-src')).toEqual(["'self'"])
    expect(directives.get('object-src')).toEqual(["'none'"])
    expect(directives.get('frame-ancestors')).toEqual(["'none'"])
    expect(withCsp(undefined)).toEqual({ 'Content-Security-Policy': [CSP] })
  })
})
