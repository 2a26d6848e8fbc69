/** The routes of importing chats from other apps' exports (and Cairn's own). */
import { z } from 'zod'
import type { ImportRun } from '../dto'
import { id } from './fields'

export const importsInputs = {
  /**
   * The desktop app's file dialog for an export to import (browser mode: `unavailable`, the
   * page uploads the file to `POST /upload-import` instead); null: cancelled
   */
  'imports.pick': z.strictObject({}),
  /** imports a file picked or uploaded; `imports.progress` events tell how it goes and ends */
  'imports.start': z.strictObject({ fileId: id }),
  /** stops an import between two conversations (what it wrote stays) */
  'imports.cancel': z.strictObject({ importId: id }),
  /** the imports running now */
  'imports.list': z.strictObject({}),
} satisfies Record<keyof ImportsOutputs, z.ZodType>

/** A file offered for import: the page knows it by `fileId`, never by its path. */
export interface ImportFile {
  fileId: string
  name: string
  bytes: number
}

/** What each route answers. */
export interface ImportsOutputs {
  'imports.pick': { file: ImportFile | null }
  'imports.start': ImportRun
  'imports.cancel': { cancelled: boolean }
  'imports.list': { imports: ImportRun[] }
}
