/**
 * The app itself: what it is, the system dialogs only the desktop app can show (a page
 * cannot learn a folder's path or write where the user chose), and a new database in place
 * of one a query found damaged.
 */
import path from 'node:path'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext, NativeDialogs } from './handler-context'

type AppRoutes =
  | 'app.info'
  | 'app.pickFolder'
  | 'app.pickModelFile'
  | 'app.saveFile'
  | 'app.replaceDamagedDatabase'

/** The suggested name only: no folders, no characters a file system refuses. */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f<>:"|?*]/g, '_').replace(/^\.+/, '')
  return cleaned.trim() || 'export'
}

export function appHandlers(c: HandlerContext): Pick<Handlers, AppRoutes> {
  const dialogs = (): NativeDialogs => {
    if (!c.dialogs)
      throw new ExpectedError(
        'unavailable',
        'Only the desktop app can show the system’s file dialogs.',
      )
    return c.dialogs
  }
  return {
    'app.info': async () => ({
      name: 'Cairn',
      version: c.version,
      dataDir: c.app.dataDir,
      host: c.hostKind,
      platform: process.platform,
    }),
    'app.pickFolder': async (input) => ({
      path: await dialogs().pickFolder({
        title: input.title ?? 'Choose a folder',
        ...(input.defaultPath && path.isAbsolute(input.defaultPath)
          ? { defaultPath: input.defaultPath }
          : {}),
      }),
    }),
    'app.pickModelFile': async () => ({
      path: await dialogs().pickModelFile({ title: 'Choose a GGUF model file' }),
    }),
    'app.saveFile': async (input) => {
      const target = await dialogs().chooseSavePath({ defaultName: safeFilename(input.filename) })
      if (target === null) return { path: null }
      if (!path.isAbsolute(target))
        throw new ExpectedError('bad_request', `The save dialog gave a relative path: ${target}`)
      try {
        await c.writeFile(target, input.content)
        // a Markdown export's files, in the folder beside it its links point into
        for (const f of input.files ?? [])
          await c.writeFile(path.join(path.dirname(target), f.path), Buffer.from(f.data, 'base64'))
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e)
        throw new ExpectedError('unavailable', `Could not save ${target}: ${why}`)
      }
      return { path: target }
    },
    // only when the database is damaged (a query found it, or SQLite's check does now), and
    // only with the user's consent
    'app.replaceDamagedDatabase': async () => {
      const damage = c.app.store.findDamage()
      if (!damage)
        throw new ExpectedError(
          'conflict',
          'Cairn has found no damage in its database, so it was left as it is.',
        )
      if (!c.replaceDatabase)
        throw new ExpectedError(
          'unavailable',
          'This host cannot start a new database while it runs.',
        )
      if (c.confirmNewDatabase && !(await c.confirmNewDatabase(damage.message)))
        return { movedTo: null }
      return { movedTo: await c.replaceDatabase() }
    },
  }
}
