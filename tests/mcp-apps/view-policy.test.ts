/** A view's policy: what a server may declare for its view, and what Cairn sends for it. */
import { describe, expect, it } from 'vitest'
import { ViewDocuments, VIEW_DOCUMENT_TTL_MS } from '../../src-main/services/host/view-documents'
import { allowedViewCsp, checkSources, viewCsp } from '../../src-main/services/host/view-policy'

describe('declared sources', () => {
  it('takes https and wss origins on public names, wildcard subdomains included', () => {
    expect(
      checkSources([
        'https://api.example.com',
        'wss://live.example.com:8443',
        'https://*.cdn.example.org/',
        'HTTPS://Upper.Example.com',
      ]),
    ).toEqual({
      allowed: [
        'https://api.example.com',
        'wss://live.example.com:8443',
        'https://*.cdn.example.org',
        'https://upper.example.com',
      ],
      refused: [],
    })
  })

  it('refuses what would widen the policy or reach Cairn itself, saying why', () => {
    const { allowed, refused } = checkSources([
      '*',
      'https:',
      'https://*',
      'http://example.com',
      'https://127.0.0.1:4000',
      'https://localhost',
      'https://app.localhost',
      "https://a.com 'unsafe-eval'",
      'https://a.com; script-src *',
      'https://a.com/path',
      'data:',
      "'self'",
      'https://*.com',
    ])
    expect(allowed).toEqual([])
    expect(refused).toHaveLength(13)
    expect(refused[4]).toBe('https://127.0.0.1:4000 (an IP address)')
    expect(refused[5]).toBe('https://localhost (not an https or wss origin)')
    expect(refused[6]).toBe('https://app.localhost (a loopback name)')
  })

  it('gives a view that declares nothing no network at all', () => {
    const { csp, refused } = allowedViewCsp({})
    expect(refused).toEqual([])
    const policy = viewCsp(csp, 'app://cairn')
    expect(policy).toContain("connect-src 'none'")
    expect(policy).toContain("script-src 'unsafe-inline';")
    expect(policy).toContain('img-src data: blob:;')
    expect(policy).toContain("frame-src 'none'")
    expect(policy).toContain("base-uri 'none'")
    expect(policy).toContain("form-action 'none'")
    expect(policy).toContain('frame-ancestors app://cairn')
    expect(policy).not.toContain('unsafe-eval')
  })

  it('maps each declaration to its directives and nothing else', () => {
    const { csp } = allowedViewCsp({
      csp: {
        connectDomains: ['https://api.example.com'],
        resourceDomains: ['https://cdn.example.com'],
        frameDomains: ['https://player.example.com'],
        baseUriDomains: ['https://base.example.com'],
      },
    })
    const d = Object.fromEntries(
      viewCsp(csp, 'http://127.0.0.1:1')
        .split('; ')
        .map((x) => [x.split(' ')[0], x.slice(x.indexOf(' ') + 1)]),
    )
    expect(d['connect-src']).toBe('https://api.example.com')
    expect(d['script-src']).toBe("'unsafe-inline' https://cdn.example.com")
    expect(d['font-src']).toBe('data: https://cdn.example.com')
    expect(d['frame-src']).toBe('https://player.example.com')
    expect(d['base-uri']).toBe('https://base.example.com')
    expect(d['default-src']).toBe("'none'")
  })
})

describe("views' documents", () => {
  const csp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }

  it('are served a few times within a few minutes, then not found', () => {
    let now = 1_000
    const docs = new ViewDocuments(() => now)
    const path = docs.add('<p>v</p>', csp)
    expect(docs.serve(path, 'app://cairn').status).toBe(200)
    now += VIEW_DOCUMENT_TTL_MS + 1
    expect(docs.serve(path, 'app://cairn').status).toBe(404)

    const again = docs.add('<p>v</p>', csp)
    expect([1, 2, 3, 4].map(() => docs.serve(again, 'app://cairn').status)).toEqual([
      200, 200, 200, 404,
    ])
  })

  it('get a token no one can guess, a new one each time', () => {
    const docs = new ViewDocuments()
    const a = docs.add('x', csp)
    const b = docs.add('x', csp)
    expect(a).not.toBe(b)
    expect(a.length - '/mcp-view/'.length).toBe(32)
  })
})
