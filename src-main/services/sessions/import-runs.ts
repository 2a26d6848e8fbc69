/**
 * Imports started from the window (Settings › General › "Import chats…", a file dropped on
 * the window): the file chosen in the desktop app's dialog or uploaded by the page is
 * offered (the page gets an id, a name and a size, never a path), then imported in the
 * importer's worker thread while `imports.progress` events say how far it is and how it
 * ended; the sidebar reloads when it ends. An upload's temporary copy is removed after.
 */
import { randomUUID } from 'node:crypto'
import { rm, stat } from 'node:fs/promises'
import path from 'node:path'
import type { ImportRun } from '../../../src-preload/contract/dto'
import { ExpectedError, expectedInfo, messageOf } from '../../core/errors'
import type { ChatImporter } from '../../core/service-ports'

const OFFER_MS = 10 * 60_000

interface Offered {
  file: string
  name: string
  /** an upload's copy: removed once imported */
  temporary: boolean
  until: number
}

export class ImportRuns {
  private readonly offered = new Map<string, Offered>()
  private readonly running = new Map<string, { run: ImportRun; abort: AbortController }>()

  constructor(
    private readonly importer: ChatImporter,
    private readonly publish: (run: ImportRun) => void,
    /** the chats changed (the sidebar reloads) */
    private readonly changed: () => void,
    private readonly bug: (e: unknown) => string,
  ) {}

  /** a file to import, known to the page by the id this returns */
  async offer(
    file: string,
    opts: { name?: string; temporary?: boolean } = {},
  ): Promise<{ fileId: string; name: string; bytes: number }> {
    const now = Date.now()
    for (const [id, o] of this.offered) if (o.until < now) this.forget(id)
    const fileId = randomUUID()
    const name = opts.name ?? path.basename(file)
    this.offered.set(fileId, {
      file,
      name,
      temporary: opts.temporary ?? false,
      until: now + OFFER_MS,
    })
    const bytes = await stat(file).then(
      (s) => s.size,
      () => 0,
    )
    return { fileId, name, bytes }
  }

  /** starts importing an offered file; its progress and end come as events */
  start(fileId: string): ImportRun {
    const offered = this.offered.get(fileId)
    if (!offered)
      throw new ExpectedError('not_found', 'That file was chosen too long ago: choose it again.')
    this.offered.delete(fileId)
    const run: ImportRun = {
      importId: randomUUID(),
      name: offered.name,
      state: 'running',
      progress: { conversations: 0, bytes: 0, totalBytes: 0 },
    }
    const abort = new AbortController()
    this.running.set(run.importId, { run, abort })
    this.publish(run)
    void this.run(run, offered, abort.signal)
    return run
  }

  /** asks a running import to stop between two conversations; false when none runs */
  cancel(importId: string): boolean {
    const running = this.running.get(importId)
    if (!running) return false
    running.abort.abort()
    return true
  }

  /** the imports running now (a window opened meanwhile shows them) */
  list(): ImportRun[] {
    return [...this.running.values()].map((r) => r.run)
  }

  private async run(run: ImportRun, offered: Offered, signal: AbortSignal): Promise<void> {
    let end: ImportRun
    try {
      const summary = await this.importer.importFile(offered.file, {
        signal,
        name: offered.name,
        onProgress: (progress) => {
          run.progress = progress
          this.publish({ ...run })
        },
      })
      end = { ...run, state: summary.cancelled ? 'cancelled' : 'done', summary }
    } catch (e) {
      const info = expectedInfo(e)
      end = {
        ...run,
        state: 'failed',
        error: info ?? { code: 'internal', message: messageOf(e), details: { id: this.bug(e) } },
      }
    }
    this.running.delete(run.importId)
    if (offered.temporary) await rm(offered.file, { force: true }).catch(() => {})
    this.publish(end)
    this.changed()
  }

  private forget(id: string): void {
    const o = this.offered.get(id)
    this.offered.delete(id)
    if (o?.temporary) void rm(o.file, { force: true }).catch(() => {})
  }
}
