/**
 * Downloads of GGUF models from the hub, for the window and the CLI: one at a time per
 * file, with progress, pause (what came is kept under a partial name) and resume (an HTTP
 * range from there), the sha256 checked against the hub's before the file is listed. A file
 * that would not fit this machine's memory is refused before it is downloaded.
 */
import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type {
  HubFile,
  HubRepo,
  LocalModel,
  ModelDownload,
} from '../../../src-preload/contract/local-models'
import { ExpectedError } from '../../core/errors'
import { estimatedNeed, formatBytes } from '../../core/local-models/memory'
import type { LocalModelStore } from '../../core/service-ports'

/** What the downloads need of the hub (`adapters/local-models/hub.ts`). */
export interface ModelHub {
  files(repo: string, memoryBytes: number, signal?: AbortSignal): Promise<HubFile[]>
  download(
    f: Pick<HubFile, 'repo' | 'file' | 'size'>,
    partial: string,
    o: { signal: AbortSignal; onProgress: (p: { received: number; total: number }) => void },
  ): Promise<string>
}

/** Searching the hub (Settings › Models). */
export interface ModelHubSearch extends Pick<ModelHub, 'files'> {
  search(query: string, signal?: AbortSignal): Promise<HubRepo[]>
}

/** progress is told at most this often */
const PROGRESS_MS = 200

/** The file of a repository to download when none is named: Q4_K_M if it fits, else the largest that fits. */
export function chooseFile(files: HubFile[], file: string | undefined): HubFile {
  if (file) {
    const named = files.find((f) => f.file === file || path.posix.basename(f.file) === file)
    if (named) return named
    throw new ExpectedError(
      'not_found',
      `There is no GGUF file "${file}" there. Its GGUF files: ${files.map((f) => f.file).join(', ') || 'none'}.`,
    )
  }
  const fit = files.filter((f) => f.fits)
  const chosen = fit.find((f) => f.quantization === 'Q4_K_M') ?? fit.at(-1)
  if (chosen) return chosen
  if (files.length === 0) throw new ExpectedError('not_found', 'That repository has no GGUF file.')
  throw tooLarge(files[0]!, os.totalmem())
}

function tooLarge(f: HubFile, total: number): ExpectedError {
  return new ExpectedError(
    'not_enough_memory',
    `${f.file} (${formatBytes(f.size)}) needs about ${formatBytes(estimatedNeed(f.size))} of memory to run, ` +
      `and this machine has ${formatBytes(total)}. Choose a smaller file (a lower quantization, fewer parameters).`,
  )
}

export interface PreparedPull {
  hub: ModelHub
  url: string
  f: HubFile & { sha256: string }
  name: string
  id: string
}

function checkName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name))
    throw new ExpectedError(
      'bad_request',
      `"${name}" cannot be a model's name: use letters, digits, ".", "_" and "-".`,
    )
  return name
}

export class ModelDownloads {
  private readonly states = new Map<string, ModelDownload>()
  private readonly running = new Map<string, AbortController>()
  private readonly listeners = new Set<(d: ModelDownload) => void>()

  constructor(
    private readonly models: LocalModelStore,
    private readonly hub: () => { hub: ModelHub; url: string },
  ) {}

  /** Tells `fn` of every change of a download (its progress too); returns the unsubscribe. */
  onChange(fn: (d: ModelDownload) => void): () => void {
    this.listeners.add(fn)
    return () => void this.listeners.delete(fn)
  }

  list(): ModelDownload[] {
    return [...this.states.values()]
  }

  private set(d: ModelDownload): void {
    this.states.set(d.id, d)
    for (const fn of this.listeners) fn({ ...d })
  }

  /** Pauses a running download; what came is kept for a resume. */
  pause(id: string): boolean {
    const c = this.running.get(id)
    if (!c) return false
    c.abort(new Error('paused'))
    return true
  }

  /**
   * Checks a pull before it starts (the file, its size against the memory, its sha256, the
   * name): what is wrong is thrown here, before anything is downloaded.
   */
  async prepare(o: { repo: string; file?: string; name?: string }): Promise<PreparedPull> {
    const { hub, url } = this.hub()
    const total = os.totalmem()
    const f = chooseFile(await hub.files(o.repo, total), o.file)
    if (!f.fits) throw tooLarge(f, total)
    if (!f.sha256) {
      throw new ExpectedError(
        'download_failed',
        `The hub gives no sha256 for ${f.file}, so a download could not be checked. Download it yourself and add it from disk.`,
      )
    }
    const name = checkName(o.name ?? path.posix.basename(f.file).replace(/\.gguf$/i, ''))
    if (this.models.get(name)) {
      throw new ExpectedError(
        'conflict',
        `There is already a model named "${name}". Remove it first, or give another name.`,
      )
    }
    const id = `${f.repo}/${f.file}`
    if (this.running.has(id))
      throw new ExpectedError('conflict', `${f.file} is being downloaded already.`)
    return { hub, url, f: { ...f, sha256: f.sha256 }, name, id }
  }

  /**
   * Downloads a repository's file (`file`, else the one `chooseFile` picks), checks it and
   * lists it as `name` (default: from the file's name). Resumes what an earlier pull left.
   */
  async pull(o: { repo: string; file?: string; name?: string }): Promise<LocalModel> {
    return this.run(await this.prepare(o))
  }

  /** Downloads what `prepare` checked; resolves with the model once it is listed. */
  async run({ hub, url, f, name, id }: PreparedPull): Promise<LocalModel> {
    if (this.running.has(id))
      throw new ExpectedError('conflict', `${f.file} is being downloaded already.`)
    const controller = new AbortController()
    this.running.set(id, controller)
    const partial = this.models.partialPath(f.sha256)
    const base: ModelDownload = {
      id,
      repo: f.repo,
      file: f.file,
      name,
      received: 0,
      total: f.size,
      state: 'downloading',
      error: null,
    }
    this.set(base)
    let last = 0
    try {
      const sha = await hub.download(f, partial, {
        signal: controller.signal,
        onProgress: ({ received }) => {
          const now = Date.now()
          if (now - last < PROGRESS_MS && received < f.size) return
          last = now
          this.set({ ...base, received })
        },
      })
      this.set({ ...base, received: f.size, state: 'verifying' })
      if (sha !== f.sha256) {
        rmSync(partial, { force: true })
        throw new ExpectedError(
          'download_failed',
          `The downloaded ${f.file} is not the file the hub describes (its sha256 is ${sha}, the hub says ${f.sha256}). It was deleted; pull it again.`,
        )
      }
      const model = await this.models.addDownloaded(partial, {
        name,
        sha256: sha,
        source: { kind: 'hub', hub: url, repo: f.repo, file: f.file },
      })
      this.set({ ...base, received: f.size, state: 'done' })
      return model
    } catch (e) {
      const received = this.states.get(id)?.received ?? 0
      if (controller.signal.aborted) {
        this.set({ ...base, received, state: 'paused' })
        throw new ExpectedError(
          'download_failed',
          `The download of ${f.file} was paused at ${formatBytes(received)}; pull it again to resume.`,
        )
      }
      this.set({ ...base, received, state: 'failed', error: (e as Error).message })
      throw e
    } finally {
      this.running.delete(id)
    }
  }

  /** Stops every download (the host is closing); their partial files stay for a resume. */
  stopAll(): void {
    for (const c of this.running.values()) c.abort(new Error('closing'))
  }
}
