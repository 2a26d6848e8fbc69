/** fetch_url against a local HTTP server, and the HTML text extractor. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlToText } from '../../src-main/adapters/builtin-tools/html-text'
import { harness } from './harness'

const PAGE = `<!doctype html>
<html><head><title>Cairn &amp; Co</title>
<style>body { color: red }</style>
<script>var secret = "<p>not text</p>";</script>
</head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<h1>Stone   piles</h1>
<p>A <a href="/cairn">cairn</a> is a&nbsp;pile of <b>stones</b> &#8212; &quot;markers&quot; &#x1F5FB;.</p>
<ul><li>first</li><li>second</li></ul>
<pre>  indented
    code</pre>
<!-- a comment -->
<footer>Copyright noise</footer>
</body></html>`

let server: http.Server
let base = ''
const hanging = new Set<http.ServerResponse>()

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '/'
    if (url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(PAGE)
    } else if (url === '/redirect') {
      res.writeHead(302, { location: '/page.html' })
      res.end()
    } else if (url === '/data.json') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item ${i}` })),
        }),
      )
    } else if (url === '/big.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      // more than the cap, sent in chunks
      for (let i = 0; i < 64; i++) res.write('y'.repeat(16 * 1024))
      res.end()
    } else if (url === '/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]))
    } else if (url === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])) // "café"
    } else if (url === '/missing') {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('no such page')
    } else if (url === '/slow-headers') {
      hanging.add(res) // never answers
    } else if (url === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('partial ')
      hanging.add(res)
    } else {
      res.writeHead(500)
      res.end()
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const res of hanging) res.destroy()
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

/** the tests' server runs on this machine: fetch_url may reach 127.0.0.1 in these tests */
const LOCAL = { fetchAllowedHosts: ['127.0.0.1'] }
/** a resolver that answers with a public (documentation) address; nothing connects to it */
const PUBLIC = async (): Promise<{ address: string; family: 4 }[]> => [
  { address: '203.0.113.7', family: 4 },
]

describe('fetch_url', () => {
  it('refuses addresses that are not http or https', async () => {
    const h = harness(LOCAL)
    for (const url of [
      'file:///etc/passwd',
      'data:text/plain,hello',
      'ftp://example.com/x',
      'javascript:alert(1)',
    ]) {
      const r = await h.call('fetch_url', { url })
      expect(r.isError, url).toBe(true)
      expect(r.text, url).toContain('only fetches http:// and https://')
    }
    const bad = await h.call('fetch_url', { url: 'not a url' })
    expect(bad.isError).toBe(true)
    expect(bad.text).toContain('not a valid URL')
  })

  it('turns HTML into readable text, starting with the URL and status', async () => {
    const h = harness(LOCAL)
    const r = await h.call('fetch_url', { url: `${base}/page.html` })
    expect(r.isError).toBe(false)
    const [url, status, type, title] = r.text.split('\n')
    expect(url).toBe(`URL: ${base}/page.html`)
    expect(status).toBe('Status: 200 OK')
    expect(type).toBe('Content-Type: text/html; charset=utf-8')
    expect(title).toBe('Title: Cairn & Co')
    expect(r.text).toContain('# Stone piles')
    expect(r.text).toContain(`A cairn [${base}/cairn] is a pile of stones — "markers" 🗻.`)
    expect(r.text).toContain('- first\n- second')
    expect(r.text).toContain('  indented\n    code')
    for (const noise of [
      'color: red',
      'secret',
      'not text',
      'About',
      'Copyright',
      'a comment',
      '<',
    ]) {
      expect(r.text.split('\n\n').slice(1).join('\n\n')).not.toContain(noise)
    }
  })

  it('follows a redirect and reports the final URL', async () => {
    const h = harness(LOCAL)
    const r = await h.call('fetch_url', { url: `${base}/redirect` })
    expect(r.text.split('\n')[0]).toBe(`URL: ${base}/page.html`)
    expect(r.text).toContain('Stone piles')
  })

  it('returns JSON as is, cut at maxChars with a note', async () => {
    const h = harness(LOCAL)
    const full = await h.call('fetch_url', { url: `${base}/data.json` })
    expect(full.text).toContain('{"items":[{"id":0,"name":"item 0"}')
    const cut = await h.call('fetch_url', { url: `${base}/data.json`, maxChars: 100 })
    const body = cut.text.split('\n\n')[1] ?? ''
    expect(body.split('\n')[0]).toHaveLength(100)
    expect(cut.text).toMatch(
      /\[content cut at 100 of \d+ characters; call again with a larger maxChars/,
    )
  })

  it('stops reading a body above the size cap and says so', async () => {
    const h = harness({ ...LOCAL, limits: { fetchMaxBytes: 100_000 } })
    const r = await h.call('fetch_url', { url: `${base}/big.txt`, maxChars: 500_000 })
    expect(r.isError).toBe(false)
    const body = (r.text.split('\n\n')[1] ?? '').split('\n')[0] ?? ''
    expect(body).toBe('y'.repeat(100_000))
    expect(r.text).toContain('[the response was cut at 97.7 KB]')
  })

  it('describes other content by type and size only', async () => {
    const h = harness(LOCAL)
    const r = await h.call('fetch_url', { url: `${base}/image.png` })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('[image/png, 11 bytes: not shown')
    expect(r.text).not.toContain('PNG')
  })

  it('decodes the charset the server names', async () => {
    const h = harness(LOCAL)
    const r = await h.call('fetch_url', { url: `${base}/latin1` })
    expect(r.text.endsWith('\n\ncafé')).toBe(true)
  })

  it('makes an HTTP error status an error result that shows the body', async () => {
    const h = harness(LOCAL)
    const r = await h.call('fetch_url', { url: `${base}/missing` })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('Status: 404 Not Found')
    expect(r.text).toContain('no such page')
  })

  it('times out', async () => {
    const h = harness({ ...LOCAL, limits: { fetchTimeoutMs: 300 } })
    const r = await h.call('fetch_url', { url: `${base}/slow-headers` })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('did not answer within 0.3 s')
    const body = await h.call('fetch_url', { url: `${base}/slow-body` })
    expect(body.isError).toBe(true)
    expect(body.text).toContain('reading the response')
  })

  it('honours the abort signal, while connecting and while reading', async () => {
    const h = harness(LOCAL)
    for (const p of ['/slow-headers', '/slow-body']) {
      const ac = new AbortController()
      const pending = h.call('fetch_url', { url: `${base}${p}` }, ac.signal)
      setTimeout(() => ac.abort(new Error('stopped by the user')), 100)
      await expect(pending).rejects.toThrow('stopped by the user')
    }
  })

  it('says when the server cannot be reached', async () => {
    const h = harness(LOCAL)
    const closed = http.createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise((r) => closed.close(r))
    const r = await h.call('fetch_url', { url: `http://127.0.0.1:${port}/` })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('ECONNREFUSED')
  })

  it('uses the injected fetch', async () => {
    const calls: string[] = []
    const fake: typeof fetch = async (input) => {
      calls.push(String(input))
      return new Response('hello from fake', { headers: { 'content-type': 'text/plain' } })
    }
    const h = harness({ fetch: fake, resolve: PUBLIC })
    const r = await h.call('fetch_url', { url: 'https://example.invalid/x' })
    expect(calls).toEqual(['https://example.invalid/x'])
    expect(r.text).toContain('hello from fake')
  })
})

describe('html text extractor', () => {
  it('drops nested noise and keeps the text after it', () => {
    const { text } = htmlToText(
      '<div>keep 1<nav>x<nav>y</nav>z</nav>keep 2<svg><g><text>no</text></g></svg>keep 3</div>',
    )
    expect(text).toBe('keep 1keep 2keep 3')
  })

  it('treats script content as raw text and keeps table cells apart', () => {
    const { text } = htmlToText(
      '<script>if (a < b) document.write("<div>no</div>")</script><table><tr><td>a</td><td>b</td></tr></table>',
    )
    expect(text).toMatch(/^a +b$/)
  })

  it('keeps image alt text and handles attributes with > inside quotes', () => {
    const { text } = htmlToText(
      '<p>Logo: <img src="x.png" alt="A cairn"> <a title="a > b" href="#">link</a></p>',
    )
    expect(text).toBe('Logo: A cairn link')
  })

  it('decodes named and numeric entities, leaving unknown ones', () => {
    expect(
      htmlToText('<p>&lt;a&gt; &amp;amp; &#65;&#x42; &hellip; &eacute; &unknown; &#0;</p>').text,
    ).toBe('<a> &amp; AB … é &unknown; \ufffd')
  })
})
