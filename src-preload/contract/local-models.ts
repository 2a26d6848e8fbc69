/**
 * Local models (Cairn's own runtime, the `local` provider): an entry of
 * `<data dir>/models/index.json`, as stored and as the window and the CLI see it.
 */
import { z } from 'zod'

export const modelSourceSchema = z.discriminatedUnion('kind', [
  /** copied from a file on disk */
  z.object({ kind: z.literal('file'), path: z.string() }),
  /** downloaded from a Hugging Face hub (its address, the repository and the file) */
  z.object({ kind: z.literal('hub'), hub: z.string(), repo: z.string(), file: z.string() }),
])

export const localModelSchema = z.object({
  /** the name a turn asks for (`--model`) */
  name: z.string().min(1).max(200),
  /** the file in `<data dir>/models/` */
  file: z.string().min(1).max(300),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  source: modelSourceSchema,
  addedAt: z.number(),
  /** from the GGUF header */
  architecture: z.string(),
  contextLength: z.number().int().positive().nullable(),
  chatTemplate: z.boolean(),
  quantization: z.string().nullable(),
})

export type LocalModel = z.infer<typeof localModelSchema>
export type ModelSource = z.infer<typeof modelSourceSchema>

/** Settings › Models: the models, the folder, and this machine's memory (bytes). */
export interface LocalModelsView {
  models: LocalModel[]
  dir: string
  memory: { total: number; free: number }
}

/** A GGUF repository found on the hub. */
export interface HubRepo {
  repo: string
  downloads: number | null
  likes: number | null
}

/** One GGUF file of a hub repository. */
export interface HubFile {
  repo: string
  file: string
  size: number
  /** null: the hub gives none (such a file is not downloaded: it could not be checked) */
  sha256: string | null
  quantization: string | null
  /** whether it would load in this machine's memory */
  fits: boolean
}

/** A download of a hub file, as Settings › Models shows it. */
export interface ModelDownload {
  /** `<repo>/<file>` */
  id: string
  repo: string
  file: string
  /** the model's name once it is listed */
  name: string
  received: number
  total: number
  state: 'downloading' | 'paused' | 'verifying' | 'done' | 'failed'
  /** what went wrong (failed) */
  error: string | null
}

/** The model the first run offers: a small one that fits this machine. */
export interface RecommendedModel {
  repo: string
  file: string
  /** as people call it: `Qwen3 0.6B` */
  label: string
  /** bytes (what the hub said when it was chosen) */
  size: number
}
