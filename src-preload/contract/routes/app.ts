/** The routes of the app itself: what it is, the system's dialogs and the damaged-database path. */
import { z } from 'zod'
import type { AppInfo } from '../app-dto'

export const appInputs = {
  'app.info': z.strictObject({}),
  /** The desktop app's folder picker (browser mode: `unavailable`, a page cannot give a path). */
  'app.pickFolder': z.strictObject({
    title: z.string().min(1).max(200).optional(),
    defaultPath: z.string().max(4096).optional(),
  }),
  /** The desktop app's file picker for a GGUF model (browser mode: `unavailable`). */
  'app.pickModelFile': z.strictObject({}),
  /**
   * The desktop app's save dialog, then `content` written where the user chose (browser mode:
   * `unavailable`, the page downloads instead). `filename` is only the suggested name.
   */
  'app.saveFile': z.strictObject({
    filename: z.string().min(1).max(255),
    content: z.string().max(256 * 1024 * 1024),
    /** written beside the file, at these relative paths (a Markdown export's attachments) */
    files: z
      .array(
        z.strictObject({
          path: z.string().regex(/^[^/\\]{1,200}\/[^/\\]{1,200}$/),
          data: z.string().max(200 * 1024 * 1024),
        }),
      )
      .max(1000)
      .optional(),
  }),
  /**
   * After a request failed with `database_damaged`: moves the damaged database aside (it is
   * kept, for recovery) and starts a new, empty one, only with the user's consent (the
   * desktop app asks in a native dialog; in browser mode the page asks first). `conflict`
   * when no damage was found.
   */
  'app.replaceDamagedDatabase': z.strictObject({}),
} satisfies Record<keyof AppOutputs, z.ZodType>

/** What each route answers. */
export interface AppOutputs {
  'app.info': AppInfo
  /** null: the user cancelled */
  'app.pickFolder': { path: string | null }
  /** null: the user cancelled */
  'app.pickModelFile': { path: string | null }
  /** where the file was written; null: the user cancelled */
  'app.saveFile': { path: string | null }
  /** where the damaged database was moved; null: the user declined */
  'app.replaceDamagedDatabase': { movedTo: string | null }
}
