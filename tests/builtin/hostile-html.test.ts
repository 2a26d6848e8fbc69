/**
 * A page of the model's choosing cannot stall fetch_url's HTML-to-text: broken markup that
 * makes a tag regular expression backtrack quadratically (`<a<a<a…`, unclosed quotes, many
 * `<title>`s) or nests without end is read in one pass. On an extractor built on regular
 * expressions the first case alone ran for minutes; here each must finish well inside the
 * test's timeout. A tag left open at the end of the page is dropped, as a browser does.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlToText } from '../../src-main/adapters/builtin-tools/html-text'
import { harness } from './harness'

const BIG = 400_000

describe('hostile HTML', () => {
  it('an unclosed tag repeated is one broken tag, dropped', () => {
    expect(htmlToText(`<p>before</p>${'<a'.repeat(BIG)}`).text).toBe('before')
  })

  it('unclosed quotes inside tags do not make tag finding quadratic', () => {
    const html = `<p>start</p>${'<a "'.repeat(BIG / 2)}`
    expect(htmlToText(html).text).toBe('start')
  })

  it('many titles without an end, and many script starts, end the scan', () => {
    expect(htmlToText(`<title>Real</title>${'<title>'.repeat(BIG / 4)}`).title).toBe('Real')
    expect(htmlToText(`<p>kept</p>${'<title'.repeat(BIG / 4)}`).text.startsWith('kept')).toBe(true)
    expect(htmlToText(`<p>kept</p>${'<script>'.repeat(BIG / 4)}`).text).toBe('kept')
  })

  it('quoted values may hold >; a quote left open runs to the end of the page', () => {
    expect(htmlToText('<p title="a > b">x</p><a title=\'>\'>y</a>').text).toBe('x\n\ny')
    expect(htmlToText('<p>1</p><a b="c>2</a>').text).toBe('1')
  })

  it('nesting without end is cut at a depth, not followed until the stack overflows', () => {
    const deep = htmlToText(`<p>top</p>${'<div>'.repeat(BIG / 4)}lost`).text
    expect(deep.startsWith('top')).toBe(true)
    expect(deep).not.toContain('lost')
    expect(htmlToText(`${'<b>'.repeat(BIG / 4)}x`).text).not.toContain('x')
  })
})

let server: http.Server
let base = ''
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(
      `<title>Trap</title><p>before ${'words '.repeat(100)}</p>${'<a x="1>" '.repeat(BIG / 4)}${'<a'.repeat(BIG)}`,
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((r) => server.close(r))
})

describe('fetch_url over a hostile page', () => {
  it('returns the page as text', async () => {
    const h = harness({
      fetchAllowedHosts: ['127.0.0.1'],
      limits: { fetchMaxBytes: 4 * 1024 * 1024 },
    })
    const r = await h.call('fetch_url', { url: `${base}/`, maxChars: 200 })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('Title: Trap')
    expect(r.text).toContain('before')
    expect(r.text).toContain('[content cut at 200 of')
  })
})
