/**
 * A scripted Hugging Face hub on 127.0.0.1: repository search, a repository's files with
 * their sizes and sha256, and file downloads with HTTP ranges; a download can be cut after
 * a number of bytes (once), or serve other bytes than the ones it describes.
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface HubRepoFixture {
  repo: string
  files: Record<string, Buffer>
  /** sizes the listing claims instead of the files' own (a file too large for the memory) */
  claimedSizes?: Record<string, number>
  downloads?: number
}

export interface ScriptedHub {
  url: string
  /** every request's path and Range header */
  requests: { path: string; range: string | null }[]
  /** the next download ends (connection closed) after this many bytes of body */
  cutNextAfter: number | null
  /** downloads send these bytes instead of the file's (its listed sha256 stays the real one) */
  corrupt: boolean
  /** served bytes per second at most, for pausing mid-download (null: as fast as possible) */
  bytesPerSecond: number | null
  close(): Promise<void>
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex')

export async function startModelHub(repos: HubRepoFixture[]): Promise<ScriptedHub> {
  const state: Omit<ScriptedHub, 'url' | 'close'> = {
    requests: [],
    cutNextAfter: null,
    corrupt: false,
    bytesPerSecond: null,
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    state.requests.push({ path: url.pathname, range: req.headers.range ?? null })
    const json = (body: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (url.pathname === '/api/models') {
      const q = (url.searchParams.get('search') ?? '').toLowerCase()
      return json(
        repos
          .filter((r) => r.repo.toLowerCase().includes(q))
          .map((r) => ({ id: r.repo, downloads: r.downloads ?? 1, likes: 0 })),
      )
    }
    const info = /^\/api\/models\/([^/]+\/[^/]+)$/.exec(url.pathname)
    if (info) {
      const r = repos.find((x) => x.repo === info[1])
      if (!r) return void res.writeHead(404).end()
      return json({
        id: r.repo,
        siblings: [
          { rfilename: 'README.md', size: 10 },
          ...Object.entries(r.files).map(([name, b]) => {
            const size = r.claimedSizes?.[name] ?? b.length
            return { rfilename: name, size, lfs: { sha256: sha(b), size } }
          }),
        ],
      })
    }
    const dl = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(url.pathname)
    const r = dl && repos.find((x) => x.repo === dl[1])
    const file = dl && r?.files[decodeURIComponent(dl[2]!)]
    if (!file) return void res.writeHead(404).end()
    const body = state.corrupt ? Buffer.alloc(file.length, 7) : file
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    const start = m ? Number(m[1]) : 0
    const part = body.subarray(start)
    res.writeHead(m ? 206 : 200, {
      'content-length': part.length,
      ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    })
    const cut = state.cutNextAfter
    state.cutNextAfter = null
    void send(res, cut === null ? part : part.subarray(0, cut), cut !== null, state.bytesPerSecond)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

async function send(
  res: http.ServerResponse,
  bytes: Buffer,
  cut: boolean,
  rate: number | null,
): Promise<void> {
  const step = 64 * 1024
  for (let i = 0; i < bytes.length; i += step) {
    if (res.destroyed) return
    // each piece on the wire before the next (a cut then falls after what was sent)
    await new Promise<void>((r) => res.write(bytes.subarray(i, i + step), () => r()))
    if (rate) await new Promise((r) => setTimeout(r, (step / rate) * 1000))
  }
  if (cut) res.destroy()
  else res.end()
}
