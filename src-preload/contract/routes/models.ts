/** The routes of models that run inside Cairn: the list, downloads and the runtime. */
import { z } from 'zod'
import type {
  HubFile,
  HubRepo,
  LocalModel,
  LocalModelsView,
  ModelDownload,
  RecommendedModel,
} from '../local-models'
import { text } from './fields'

export const modelsInputs = {
  /** the local models (Settings › Models), this machine's memory, the runtime's process */
  'models.list': z.strictObject({}),
  /** copies a GGUF file from this machine (an absolute path) into the models folder */
  'models.add': z.strictObject({
    path: z.string().min(1).max(4096),
    name: text(100).optional(),
  }),
  'models.remove': z.strictObject({ name: text(200) }),
  /** whether the local runtime's process runs, and its pid */
  'models.runtime': z.strictObject({}),
  /** GGUF repositories on the hub whose name matches */
  'models.search': z.strictObject({ query: z.string().trim().min(1).max(200) }),
  /** a hub repository's GGUF files: size, quantization, whether each fits this machine */
  'models.files': z.strictObject({ repo: z.string().min(3).max(200) }),
  /**
   * Starts downloading a hub file (or resumes it): checked first (not there, too large for
   * the memory, a name in use); progress comes as `models.download` events
   */
  'models.pull': z.strictObject({
    repo: z.string().min(3).max(200),
    file: z.string().min(1).max(500).optional(),
    name: text(100).optional(),
  }),
  'models.pause': z.strictObject({ id: z.string().min(1).max(800) }),
  /** the downloads of this run, and their state */
  'models.downloads': z.strictObject({}),
  /** the small model the first run offers (null: none fits this machine) */
  'models.recommended': z.strictObject({}),
} satisfies Record<keyof ModelsOutputs, z.ZodType>

/** What each route answers. */
export interface ModelsOutputs {
  'models.list': LocalModelsView
  'models.add': LocalModel
  'models.remove': { removed: string }
  'models.runtime': { running: boolean; pid: number | null }
  'models.search': { repos: HubRepo[] }
  'models.files': { files: HubFile[] }
  'models.pull': { download: ModelDownload }
  'models.pause': { paused: boolean }
  'models.downloads': { downloads: ModelDownload[] }
  'models.recommended': { model: RecommendedModel | null }
}
