/**
 * Downloads from a scripted hub on 127.0.0.1: search, the files of a repository (size,
 * quantization, whether it fits), a download cut in the middle and resumed with a range
 * (never listed half-written), a file whose bytes are not the ones the hub describes, a hub
 * that does not answer, and a file too large for the memory refused before it starts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HubClient, quantizationOf } from '../../src-main/adapters/local-models/hub'
import { ModelIndex } from '../../src-main/adapters/local-models/model-index'
import { ModelDownloads } from '../../src-main/services/providers/model-downloads'
import { startModelHub, type ScriptedHub } from '../support/model-hub'
import { TINY_MODEL, TINY_SHA256 } from './support'

const tiny = readFileSync(TINY_MODEL)

describe('model downloads', () => {
  let dir: string
  let hub: ScriptedHub
  let index: ModelIndex
  let downloads: ModelDownloads
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-pull-'))
    hub = await startModelHub([
      {
        repo: 'ggml-org/tiny-GGUF',
        files: { 'stories260K-F32.gguf': tiny, 'tiny-Q4_K_M.gguf': tiny },
      },
      {
        repo: 'other/huge-GGUF',
        files: { 'huge-Q8_0.gguf': Buffer.alloc(16) },
        claimedSizes: { 'huge-Q8_0.gguf': 4 * 1024 ** 4 },
      },
    ])
    index = new ModelIndex(dir)
    downloads = new ModelDownloads(index, () => ({ hub: new HubClient(hub.url), url: hub.url }))
  })
  afterEach(async () => {
    await hub.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('search and files: GGUF files only, with size, sha256, quantization and fit', async () => {
    const client = new HubClient(hub.url)
    expect((await client.search('tiny')).map((r) => r.repo)).toEqual(['ggml-org/tiny-GGUF'])
    const files = await client.files('ggml-org/tiny-GGUF', 16 * 1024 ** 3)
    expect(files.map((f) => [f.file, f.quantization, f.fits, f.sha256])).toEqual([
      ['stories260K-F32.gguf', 'F32', true, TINY_SHA256],
      ['tiny-Q4_K_M.gguf', 'Q4_K_M', true, TINY_SHA256],
    ])
    expect((await client.files('ggml-org/tiny-GGUF', 100_000))[0]?.fits).toBe(false)
    expect(quantizationOf('Qwen3-0.6B-IQ4_XS.gguf')).toBe('IQ4_XS')
  })

  it('pulls the Q4_K_M file when none is named, checks it and lists it', async () => {
    const progress: number[] = []
    downloads.onChange((d) => progress.push(d.received))
    const model = await downloads.pull({ repo: 'ggml-org/tiny-GGUF' })
    expect(model).toMatchObject({
      name: 'tiny-Q4_K_M',
      sha256: TINY_SHA256,
      source: { kind: 'hub', hub: hub.url, repo: 'ggml-org/tiny-GGUF', file: 'tiny-Q4_K_M.gguf' },
    })
    expect(readFileSync(index.filePath(model)).equals(tiny)).toBe(true)
    expect(progress.at(-1)).toBe(tiny.length)
    expect(downloads.list()[0]?.state).toBe('done')
    expect(readdirSync(index.dir).filter((f) => f.endsWith('.partial'))).toEqual([])
  })

  it('a download cut in the middle is kept, never listed, and resumed with a range', async () => {
    hub.cutNextAfter = 400_000
    const first = await downloads
      .pull({ repo: 'ggml-org/tiny-GGUF', file: 'stories260K-F32.gguf', name: 'tiny' })
      .catch((e: unknown) => e)
    expect((first as Error).message).toMatch(/stopped at \d+ KB of 1 MB.*pull it again/)
    expect((first as { code?: string }).code).toBe('download_failed')
    expect(index.list()).toEqual([])
    expect(existsSync(index.partialPath(TINY_SHA256))).toBe(true)

    const model = await downloads.pull({
      repo: 'ggml-org/tiny-GGUF',
      file: 'stories260K-F32.gguf',
      name: 'tiny',
    })
    expect(model.sha256).toBe(TINY_SHA256)
    const ranges = hub.requests.filter((r) => r.path.includes('/resolve/')).map((r) => r.range)
    expect(ranges).toHaveLength(2)
    expect(ranges[0]).toBeNull()
    const from = Number(/^bytes=(\d+)-$/.exec(ranges[1] ?? '')?.[1])
    expect(from).toBeGreaterThan(100_000)
    expect(from).toBeLessThanOrEqual(400_000)
    expect(readFileSync(index.filePath(model)).equals(tiny)).toBe(true)
    expect(existsSync(index.partialPath(TINY_SHA256))).toBe(false)
  })

  it('pause keeps what came; pulling again resumes', async () => {
    hub.bytesPerSecond = 400_000
    const pulling = downloads
      .pull({ repo: 'ggml-org/tiny-GGUF', file: 'tiny-Q4_K_M.gguf' })
      .catch((e: unknown) => e)
    await expect
      .poll(() => downloads.list()[0]?.received ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(0)
    expect(downloads.pause('ggml-org/tiny-GGUF/tiny-Q4_K_M.gguf')).toBe(true)
    expect(((await pulling) as Error).message).toMatch(/paused at/)
    expect(downloads.list()[0]?.state).toBe('paused')
    hub.bytesPerSecond = null
    const model = await downloads.pull({ repo: 'ggml-org/tiny-GGUF', file: 'tiny-Q4_K_M.gguf' })
    expect(model.sha256).toBe(TINY_SHA256)
    const last = hub.requests.filter((r) => r.path.includes('/resolve/')).at(-1)
    expect(last?.range).toMatch(/^bytes=\d+-$/)
  })

  it('bytes that are not the described file: refused, deleted, nothing listed', async () => {
    hub.corrupt = true
    const e = await downloads
      .pull({ repo: 'ggml-org/tiny-GGUF', file: 'tiny-Q4_K_M.gguf' })
      .catch((x: unknown) => x)
    expect((e as { code?: string }).code).toBe('download_failed')
    expect((e as Error).message).toMatch(
      /is not the file the hub describes \(its sha256 is [0-9a-f]{64}, the hub says 270cba/,
    )
    expect(index.list()).toEqual([])
    expect(existsSync(index.partialPath(TINY_SHA256))).toBe(false)
  })

  it('a file too large for this machine is refused with the figures, before any download', async () => {
    const e = await downloads.pull({ repo: 'other/huge-GGUF' }).catch((x: unknown) => x)
    expect((e as { code?: string }).code).toBe('not_enough_memory')
    expect((e as Error).message).toMatch(
      /huge-Q8_0\.gguf \(4096\.0 GB\) needs about 5120\.\d GB of memory to run, and this machine has [\d.]+ GB\. Choose a smaller file/,
    )
    expect(hub.requests.some((r) => r.path.includes('/resolve/'))).toBe(false)
  })

  it('a hub that does not answer, and a repository that is not there, say so', async () => {
    const away = new ModelDownloads(index, () => ({
      hub: new HubClient('http://127.0.0.1:9'),
      url: 'x',
    }))
    const e = await away.pull({ repo: 'a/b' }).catch((x: unknown) => x)
    expect((e as { code?: string }).code).toBe('hub_unreachable')
    expect((e as Error).message).toMatch(
      /Could not reach the model hub at http:\/\/127\.0\.0\.1:9 .*add.*from disk/,
    )
    const missing = await downloads.pull({ repo: 'no/such' }).catch((x: unknown) => x)
    expect((missing as { code?: string }).code).toBe('not_found')
    const file = await downloads
      .pull({ repo: 'ggml-org/tiny-GGUF', file: 'nope.gguf' })
      .catch((x: unknown) => x)
    expect((file as Error).message).toMatch(
      /no GGUF file "nope.gguf".*stories260K-F32.gguf, tiny-Q4_K_M.gguf/,
    )
  })
})
