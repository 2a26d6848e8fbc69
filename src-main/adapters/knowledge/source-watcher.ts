/**
 * Watches the knowledge sources for changes (`@parcel/watcher`: the system's own file
 * events, a prebuilt N-API module) and hands the changed paths of each source on, a quarter
 * of a second after the last change, for the index worker to read. It runs on the main
 * thread: the native module registers once per process, not once per worker.
 */
import { dirname, relative, sep } from 'node:path'
import type { AsyncSubscription } from '@parcel/watcher'
import { isWalked } from './walker'

export interface WatchedSource {
  pk: number
  path: string
  kind: 'file' | 'folder'
}

const QUIET_MS = 250

export class SourceWatcher {
  private readonly subscriptions = new Map<number, Promise<AsyncSubscription | null>>()
  private readonly changed = new Map<number, Set<string>>()
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly onChanged: (sourcePk: number, paths: string[]) => void,
    private readonly onWarning: (message: string) => void,
  ) {}

  /** Watches exactly these sources (new ones start, removed ones stop). */
  async watch(sources: readonly WatchedSource[]): Promise<void> {
    const live = new Set(sources.map((s) => s.pk))
    for (const [pk, sub] of this.subscriptions) {
      if (live.has(pk)) continue
      this.subscriptions.delete(pk)
      await (await sub)?.unsubscribe().catch(() => {})
    }
    for (const s of sources)
      if (!this.subscriptions.has(s.pk)) this.subscriptions.set(s.pk, this.subscribe(s))
    await Promise.all(this.subscriptions.values())
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const subs = [...this.subscriptions.values()]
    this.subscriptions.clear()
    for (const sub of subs) await (await sub)?.unsubscribe().catch(() => {})
  }

  private async subscribe(s: WatchedSource): Promise<AsyncSubscription | null> {
    const folder = s.kind === 'folder' ? s.path : dirname(s.path)
    try {
      const { subscribe } = await import('@parcel/watcher')
      return await subscribe(folder, (err, events) => {
        if (!err) for (const e of events) this.heard(s, e.path)
      })
    } catch (e) {
      this.onWarning(`Changes under ${folder} are not watched: ${(e as Error).message}`)
      return null
    }
  }

  private heard(s: WatchedSource, path: string): void {
    const inside =
      s.kind === 'file' ? path === s.path : relative(s.path, path).split(sep).every(isWalked)
    if (!inside) return
    const set = this.changed.get(s.pk) ?? new Set<string>()
    set.add(path)
    this.changed.set(s.pk, set)
    this.timer ??= setTimeout(() => {
      this.timer = null
      for (const [pk, paths] of this.changed) this.onChanged(pk, [...paths])
      this.changed.clear()
    }, QUIET_MS)
  }
}
