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
