/** Settings › Models: the local models Cairn runs itself (the `local` provider). */
import os from 'node:os'
import { isAbsolute } from 'node:path'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

type ModelRoutes = 'models.list' | 'models.add' | 'models.remove' | 'models.runtime'

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
    'models.runtime': async () => {
      const pid = c.app.localRuntime.pid
      return { running: pid !== null, pid }
    },
  }
}
