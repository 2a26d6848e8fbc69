/** Settings › Models: the local models Cairn runs itself (the `local` provider). */
import os from 'node:os'
import { isAbsolute } from 'node:path'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { recommendedFor } from '../../core/local-models/recommended'
import type { HandlerContext } from './handler-context'

type ModelRoutes =
  | 'models.list'
  | 'models.add'
  | 'models.remove'
  | 'models.runtime'
  | 'models.search'
  | 'models.files'
  | 'models.pull'
  | 'models.pause'
  | 'models.downloads'
  | 'models.recommended'

export function modelHandlers(c: HandlerContext): Pick<Handlers, ModelRoutes> {
  return {
    'models.list': async () => ({
      models: c.app.models.list(),
      dir: c.app.models.dir,
      memory: { total: os.totalmem(), free: os.freemem() },
    }),
    'models.add': async ({ path, name }) => {
      if (!isAbsolute(path))
        throw new ExpectedError('bad_request', `Give the model file's full path (got "${path}").`)
      return c.app.models.addFile(path, name)
    },
    'models.remove': async ({ name }) => ({
      removed: (await c.app.models.remove(name)).name,
    }),
    'models.search': async ({ query }) => ({ repos: await c.app.modelHub().search(query) }),
    'models.files': async ({ repo }) => ({
      files: await c.app.modelHub().files(repo, os.totalmem()),
    }),
    'models.pull': async (input) => {
      const prepared = await c.app.downloads.prepare(input)
      // the download goes on after the answer: its progress and end are events
      void c.app.downloads.run(prepared).catch(() => undefined)
      const download = c.app.downloads.list().find((d) => d.id === prepared.id)
      if (!download) throw new Error('the download did not start')
      return { download }
    },
    'models.pause': async ({ id }) => ({ paused: c.app.downloads.pause(id) }),
    'models.downloads': async () => ({ downloads: c.app.downloads.list() }),
    'models.recommended': async () => {
      const choice = recommendedFor(os.totalmem())
      if (!choice) return { model: null }
      // the hub's own figure when it answers; the recorded one otherwise
      const size = await c.app
        .modelHub()
        .files(choice.repo, os.totalmem())
        .then((files) => files.find((f) => f.file === choice.file)?.size ?? choice.approxSize)
        .catch(() => choice.approxSize)
      return { model: { repo: choice.repo, file: choice.file, label: choice.label, size } }
    },
    'models.runtime': async () => {
      const pid = c.app.localRuntime.pid
      return { running: pid !== null, pid }
    },
  }
}
