/**
 * Each model's learned characters per token, kept in `<dataDir>/token-calibration.json`
 * (`{"<provider> <model>": {"charsPerToken": 3.7, "samples": 12}}`), so the estimate stays
 * calibrated across restarts. Read once, on first use; written in the background after each change
 * (atomically, private). A missing, unreadable or malformed file starts empty: it is a
 * cache of measurements, nothing is lost that the next answers do not measure again.
 */
import fs from 'node:fs'
import { z } from 'zod'
import {
  nextCharsPerToken,
  MAX_CHARS_PER_TOKEN,
  MIN_CHARS_PER_TOKEN,
} from '../core/llm/calibration'
import type { SavedTokenCalibration } from '../core/service-ports'
import { writeFileAtomic } from './atomic-file'
import { dataPaths } from './data-dir'

const entrySchema = z.object({
  charsPerToken: z.number().min(MIN_CHARS_PER_TOKEN).max(MAX_CHARS_PER_TOKEN),
  samples: z.number().int().min(1),
})
const fileSchema = z.record(z.string().max(5_000), z.unknown())

/** at most this many models are remembered (the least recently measured go first) */
const MAX_MODELS = 500

export class FileTokenCalibration implements SavedTokenCalibration {
  private readonly entries = new Map<string, z.infer<typeof entrySchema>>()
  private writing: Promise<void> = Promise.resolve()
  private readonly file: string

  constructor(
    dataDir: string,
    private readonly onError: (e: Error) => void = () => {},
  ) {
    this.file = dataPaths(dataDir).calibration
  }

  /** read on first use, not when the app opens (most commands never ask) */
  private loaded = false
  private load(): void {
    if (this.loaded) return
    this.loaded = true
    let raw: unknown = null
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'))
    } catch {
      return
    }
    const parsed = fileSchema.safeParse(raw)
    if (!parsed.success) return
    for (const [key, value] of Object.entries(parsed.data)) {
      const e = entrySchema.safeParse(value)
      if (e.success) this.entries.set(key, e.data)
    }
  }

  charsPerToken(provider: string, model: string): number | null {
    this.load()
    return this.entries.get(keyOf(provider, model))?.charsPerToken ?? null
  }

  observe(provider: string, model: string, chars: number, tokens: number): void {
    this.load()
    const key = keyOf(provider, model)
    const before = this.entries.get(key)
    const next = nextCharsPerToken(before?.charsPerToken ?? null, chars, tokens)
    if (next === null || next === before?.charsPerToken) return
    this.entries.delete(key)
    this.entries.set(key, { charsPerToken: next, samples: (before?.samples ?? 0) + 1 })
    while (this.entries.size > MAX_MODELS) this.entries.delete(this.entries.keys().next().value!)
    this.save()
  }

  /** resolves when what was observed so far is on disk */
  flushed(): Promise<void> {
    return this.writing
  }

  /** one write at a time, of the latest figures: a burst of answers costs one or two writes */
  private queued = false
  private save(): void {
    if (this.queued) return
    this.queued = true
    this.writing = this.writing
      .then(() => {
        this.queued = false
        return writeFileAtomic(this.file, JSON.stringify(Object.fromEntries(this.entries), null, 2))
      })
      .catch((e: unknown) => this.onError(e instanceof Error ? e : new Error(String(e))))
  }
}

const keyOf = (provider: string, model: string): string => `${provider} ${model}`
