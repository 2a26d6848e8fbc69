/**
 * A page of the model's choosing cannot stall fetch_url's HTML-to-text: broken markup that
 * makes a tag regular expression backtrack quadratically (`<a<a<a…`, unclosed quotes, many
 * `<title>`s) is read in one pass. On the old extractor the first case alone ran for
 * minutes; here each must finish well inside the test's timeout.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlToText } from '../../src-main/adapters/builtin-tools/html-text'
import { harness } from './harness'

const BIG = 400_000

describe('hostile HTML', () => {
  it('an unclosed tag repeated is text', () => {
    const html = '<a'.repeat(BIG)
    expect(htmlToText(html).text).toBe(html)
  })

  it('unclosed quotes inside tags do not make tag finding quadratic', () => {
    const html = `<p>start</p>${'<a "'.repeat(BIG / 2)}`
    const { text } = htmlToText(html)
    expect(text.startsWith('start')).toBe(true)
    expect(text.length).toBeGreaterThan(BIG)
  })

  it('many titles without an end, and many script starts, end the scan', () => {
    expect(htmlToText(`<title>Real</title>${'<title>'.repeat(BIG / 4)}`).title).toBe('Real')
    expect(htmlToText(`<p>kept</p>${'<title'.repeat(BIG / 4)}`).text.startsWith('kept')).toBe(true)
    expect(htmlToText(`<p>kept</p>${'<script>'.repeat(BIG / 4)}`).text).toBe('kept')
  })

  it('quoted values may hold > and a stray quote is an ordinary character', () => {
    expect(htmlToText('<p title="a > b">x</p><a href=\'>\'>y</a>').text).toBe('x\n\ny')
    expect(htmlToText('<p>1</p><a b="c>2</a>').text).toBe('1\n\n2')
  })
})

let server: http.Server
let base = ''
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(`<title>Trap</title><p>before</p>${'<a x="1>" '.repeat(BIG / 4)}${'<a'.repeat(BIG)}`)
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
