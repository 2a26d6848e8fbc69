/**
 * fetch_url does not reach this machine, the local network or metadata services unless the
 * user allowed the host, on the first hop and on every redirect; connections go to the
 * address that was checked. Two servers on 127.0.0.1 redirect to each other.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockedReason, hostAllowed } from '../../src-main/adapters/builtin-tools/net-guard'
import { harness } from './harness'

interface Server {
  server: http.Server
  port: number
  hits: string[]
}

async function serve(handler: (url: string, res: http.ServerResponse) => void): Promise<Server> {
  const hits: string[] = []
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '/')
    handler(req.url ?? '/', res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as AddressInfo).port, hits }
}

let a: Server
let b: Server

beforeAll(async () => {
  b = await serve((_url, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('B says hello')
  })
  const redirect = (res: http.ServerResponse, location: string): void => {
    res.writeHead(302, { location })
    res.end()
  }
  a = await serve((url, res) => {
    if (url === '/to-b') return redirect(res, `http://127.0.0.1:${b.port}/secret`)
    if (url === '/to-b-by-name') return redirect(res, `http://localhost:${b.port}/secret`)
    if (url === '/to-b-mapped') return redirect(res, `http://[::ffff:7f00:1]:${b.port}/secret`)
    if (url === '/to-file') return redirect(res, 'file:///etc/passwd')
    if (url === '/loop') return redirect(res, '/loop')
    if (url === '/to-page') return redirect(res, '/page')
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('A says hello')
  })
})

afterAll(async () => {
  for (const s of [a, b]) {
    s.server.closeAllConnections()
    await new Promise((r) => s.server.close(r))
  }
})

describe('fetch_url address checks', () => {
  it('classifies local, private, link-local, CGNAT and metadata addresses, v4 and v6', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(blockedReason(ip), ip).not.toBeNull()
    }
    expect(blockedReason('169.254.169.254')).toContain('metadata')
    expect(blockedReason('::ffff:a9fe:a9fe')).toContain('metadata')
    for (const ip of ['203.0.113.7', '172.32.0.1', '100.128.0.1', '2606:4700::1111']) {
      expect(blockedReason(ip), ip).toBeNull()
    }
  })

  it('matches allowed hosts by name, with or without a port', () => {
    expect(hostAllowed(new URL('http://localhost:11434/v1'), ['localhost:11434'])).toBe(true)
    expect(hostAllowed(new URL('http://localhost:8080/'), ['localhost:11434'])).toBe(false)
    expect(hostAllowed(new URL('http://[::1]:80/'), ['::1'])).toBe(true)
    expect(hostAllowed(new URL('http://[::1]/'), ['[::1]:80'])).toBe(true)
    expect(hostAllowed(new URL('https://10.0.0.5/'), ['10.0.0.5:443'])).toBe(true)
    expect(hostAllowed(new URL('http://anything/'), ['*'])).toBe(true)
  })

  it('refuses this machine by address, by name and as an IPv4-mapped IPv6 address', async () => {
    const h = harness()
    const before = a.hits.length
    for (const url of [
      `http://127.0.0.1:${a.port}/`,
      `http://localhost:${a.port}/`,
      `http://[::ffff:127.0.0.1]:${a.port}/`,
      `http://0x7f000001:${a.port}/`,
    ]) {
      const r = await h.call('fetch_url', { url })
      expect(r.isError, url).toBe(true)
      expect(r.text, url).toContain('fetch_url refused')
      expect(r.text, url).toContain('loopback')
      expect(r.text, url).toContain('fetchAllowedHosts')
    }
    expect(a.hits.length).toBe(before)
  })

  it('re-checks every redirect: an allowed host cannot send the fetch to another one', async () => {
    const h = harness({ fetchAllowedHosts: [`127.0.0.1:${a.port}`] })
    const ok = await h.call('fetch_url', { url: `http://127.0.0.1:${a.port}/to-page` })
    expect(ok.isError).toBe(false)
    expect(ok.text).toContain('A says hello')
    expect(ok.text.split('\n')[0]).toBe(`URL: http://127.0.0.1:${a.port}/page`)
    for (const path of ['/to-b', '/to-b-by-name', '/to-b-mapped']) {
      const r = await h.call('fetch_url', { url: `http://127.0.0.1:${a.port}${path}` })
      expect(r.isError, path).toBe(true)
      expect(r.text, path).toContain('fetch_url refused')
      expect(r.text, path).not.toContain('B says hello')
    }
    expect(b.hits).toEqual([])
  })

  it('follows a redirect to another allowed host', async () => {
    const h = harness({ fetchAllowedHosts: [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`] })
    const r = await h.call('fetch_url', { url: `http://127.0.0.1:${a.port}/to-b` })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('B says hello')
    expect(r.text.split('\n')[0]).toBe(`URL: http://127.0.0.1:${b.port}/secret`)
  })

  it('refuses redirects to other schemes and endless redirects', async () => {
    const h = harness({ fetchAllowedHosts: ['127.0.0.1'] })
    const file = await h.call('fetch_url', { url: `http://127.0.0.1:${a.port}/to-file` })
    expect(file.isError).toBe(true)
    expect(file.text).toContain('follows http:// and https:// only')
    const loop = await h.call('fetch_url', { url: `http://127.0.0.1:${a.port}/loop` })
    expect(loop.isError).toBe(true)
    expect(loop.text).toContain('redirected more than 10 times')
  })

  it('refuses a name when any of its addresses is private', async () => {
    const h = harness({
      resolve: async () => [
        { address: '203.0.113.7', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    })
    const r = await h.call('fetch_url', { url: 'http://mixed.test/' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('mixed.test resolves to 10.0.0.1')
    expect(r.text).toContain('private network')
  })

  it('connects to the address it checked, without resolving the name again', async () => {
    const answers = ['127.0.0.1', '127.0.0.2']
    const asked: string[] = []
    const h = harness({
      fetchAllowedHosts: ['pinned.test'],
      resolve: async (host) => {
        asked.push(host)
        // a second lookup would get another address (nothing listens on 127.0.0.2)
        return [{ address: answers[Math.min(asked.length - 1, 1)]!, family: 4 }]
      },
    })
    const r = await h.call('fetch_url', { url: `http://pinned.test:${a.port}/page` })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('A says hello')
    expect(asked).toEqual(['pinned.test'])
  })
})
