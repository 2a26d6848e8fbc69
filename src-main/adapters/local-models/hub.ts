/**
 * A Hugging Face hub (its address is the setting `localModels.hubURL`): GGUF repositories
 * found by name, a repository's GGUF files with their size, sha256 and quantization, and a
 * file downloaded to a partial file, resumed with an HTTP range where one was started, and
 * checked against its sha256 before anything else sees it. Every answer is checked with zod.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { HubFile, HubRepo } from '../../../src-preload/contract/local-models'
import { ExpectedError } from '../../core/errors'
import { fitsMemory, formatBytes } from '../../core/local-models/memory'

const TIMEOUT_MS = 15_000

const searchAnswer = z.array(
  z.object({
    id: z.string(),
    downloads: z.number().optional(),
    likes: z.number().optional(),
  }),
)

const repoAnswer = z.object({
  id: z.string(),
  siblings: z
    .array(
      z.object({
        rfilename: z.string(),
        size: z.number().int().nonnegative().optional(),
        lfs: z.object({ sha256: z.string(), size: z.number().int().nonnegative() }).optional(),
      }),
    )
    .default([]),
})

/** `…Q4_K_M.gguf` → `Q4_K_M` (also IQ quants, F16, BF16, F32) */
export function quantizationOf(file: string): string | null {
  const m = /(?:^|[-_.])((?:I?Q\d(?:_[A-Z0-9]+)*)|BF16|F16|F32)(?=[-_.]|$)/i.exec(
    file.replace(/\.gguf$/i, ''),
  )
  return m?.[1]?.toUpperCase() ?? null
}

/** A repository name the hub can have: `owner/name`. */
const REPO = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/

export function checkRepo(repo: string): string {
  if (!REPO.test(repo))
    throw new ExpectedError('bad_request', `"${repo}" is not a repository name (owner/name).`)
  return repo
}

export interface DownloadProgress {
  received: number
  total: number
}

export class HubClient {
  constructor(
    private readonly hubURL: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  private url(path: string): string {
    return `${this.hubURL.replace(/\/+$/, '')}${path}`
  }

  private async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const res = await this.request(path, {}, signal)
    try {
      return await res.json()
    } catch {
      throw new ExpectedError(
        'hub_unreachable',
        `The model hub at ${this.hubURL} answered something that is not JSON.`,
      )
    }
  }

  private async request(
    path: string,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    let res: Response
    try {
      const timeout = AbortSignal.timeout(TIMEOUT_MS)
      res = await this.fetchFn(this.url(path), {
        headers,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'follow',
      })
    } catch (e) {
      if (signal?.aborted) throw e
      const cause = (e as { cause?: { code?: string; message?: string } }).cause
      throw new ExpectedError(
        'hub_unreachable',
        `Could not reach the model hub at ${this.hubURL} (${cause?.code ?? cause?.message ?? (e as Error).message}). ` +
          'Check the network connection, or set another hub address in Settings › Models. A GGUF file you already have can be added from disk.',
        { cause: e },
      )
    }
    if (res.status === 404) {
      await res.body?.cancel()
      throw new ExpectedError(
        'not_found',
        `The model hub at ${this.hubURL} has no ${decodeURI(path.split('?')[0] ?? path)}.`,
      )
    }
    if (!res.ok && res.status !== 206) {
      await res.body?.cancel()
      throw new ExpectedError(
        'hub_unreachable',
        `The model hub at ${this.hubURL} answered HTTP ${res.status}. Try again later.`,
      )
    }
    return res
  }

  /** GGUF repositories whose name matches `query`, most downloaded first. */
  async search(query: string, signal?: AbortSignal): Promise<HubRepo[]> {
    const q = new URLSearchParams({
      search: query,
      filter: 'gguf',
      sort: 'downloads',
      direction: '-1',
      limit: '20',
    })
    const parsed = searchAnswer.safeParse(await this.get(`/api/models?${q}`, signal))
    if (!parsed.success)
      throw new ExpectedError(
        'hub_unreachable',
        `The model hub at ${this.hubURL} answered a search in a form Cairn does not read.`,
      )
    return parsed.data.map((r) => ({
      repo: r.id,
      downloads: r.downloads ?? null,
      likes: r.likes ?? null,
    }))
  }

  /** A repository's GGUF files (one-part files only), with whether each fits `memoryBytes`. */
  async files(repo: string, memoryBytes: number, signal?: AbortSignal): Promise<HubFile[]> {
    const parsed = repoAnswer.safeParse(
      await this.get(`/api/models/${checkRepo(repo)}?blobs=true`, signal),
    )
    if (!parsed.success)
      throw new ExpectedError(
        'hub_unreachable',
        `The model hub at ${this.hubURL} described ${repo} in a form Cairn does not read.`,
      )
    return parsed.data.siblings
      .filter((s) => /\.gguf$/i.test(s.rfilename) && !/-\d{5}-of-\d{5}\.gguf$/i.test(s.rfilename))
      .filter((s) => s.lfs !== undefined || s.size !== undefined)
      .map((s) => {
        const size = s.lfs?.size ?? s.size ?? 0
        return {
          repo,
          file: s.rfilename,
          size,
          sha256: s.lfs?.sha256 ?? null,
          quantization: quantizationOf(s.rfilename),
          fits: fitsMemory(size, memoryBytes),
        }
      })
      .sort((a, b) => a.size - b.size)
  }

  /**
   * Downloads `file` into `partial`: what is there already is kept and the rest asked for
   * with a range (a hub that ignores it sends the whole file, which starts again). The file's
   * sha256 is computed as it comes (over what was there too) and returned; the caller compares.
   */
  async download(
    f: Pick<HubFile, 'repo' | 'file' | 'size'>,
    partial: string,
    o: { signal: AbortSignal; onProgress: (p: DownloadProgress) => void },
  ): Promise<string> {
    const hash = createHash('sha256')
    let have = 0
    if (fs.existsSync(partial)) {
      have = fs.statSync(partial).size
      if (have > f.size) {
        fs.rmSync(partial)
        have = 0
      }
      if (have > 0)
        for await (const chunk of fs.createReadStream(partial)) hash.update(chunk as Buffer)
    }
    const path = `/${checkRepo(f.repo)}/resolve/main/${f.file.split('/').map(encodeURIComponent).join('/')}`
    const res = await this.request(path, have > 0 ? { range: `bytes=${have}-` } : {}, o.signal)
    if (have > 0 && res.status !== 206) {
      // the hub sent the whole file: start over
      have = 0
      hash.destroy()
      return this.downloadFrom(res, createHash('sha256'), 0, f.size, partial, 'w', o)
    }
    return this.downloadFrom(res, hash, have, f.size, partial, have > 0 ? 'a' : 'w', o)
  }

  private async downloadFrom(
    res: Response,
    hash: ReturnType<typeof createHash>,
    start: number,
    total: number,
    partial: string,
    flags: 'a' | 'w',
    o: { signal: AbortSignal; onProgress: (p: DownloadProgress) => void },
  ): Promise<string> {
    if (!res.body) throw new ExpectedError('hub_unreachable', 'The model hub sent no file.')
    await fs.promises.mkdir(path.dirname(partial), { recursive: true, mode: 0o700 })
    const out = fs.createWriteStream(partial, { flags, mode: 0o600 })
    let writeError: Error | null = null
    out.on('error', (e) => (writeError = e))
    let received = start
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (writeError) throw writeError
        hash.update(chunk)
        received += chunk.length
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
        o.onProgress({ received, total })
      }
    } catch (e) {
      if (o.signal.aborted || e === writeError) throw e
      throw new ExpectedError(
        'download_failed',
        `The download stopped at ${formatBytes(received)} of ${formatBytes(total)} (${(e as Error).message}). ` +
          'What came is kept: pull it again to go on from there.',
        { cause: e },
      )
    } finally {
      await new Promise<void>((resolve) => out.end(() => resolve()))
    }
    if (writeError) throw writeError
    if (received < total) {
      throw new ExpectedError(
        'download_failed',
        `The download stopped at ${formatBytes(received)} of ${formatBytes(total)}. What came is kept: pull it again to go on from there.`,
      )
    }
    return hash.digest('hex')
  }
}
