import { DEFAULT_ASSISTANT_ID } from '../../../src-preload/contract/assistants'
import { AssistantError } from '../../adapters/sqlite/assistant-store'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { AssistantFileError, exportAssistant, importAssistant } from '../assistants/assistant-files'
import { previewAssistantTools } from '../assistants/assistant-preview'
import type { HandlerContext } from './handler-context'

type AssistantRoutes =
  | 'assistants.list'
  | 'assistants.get'
  | 'assistants.create'
  | 'assistants.update'
  | 'assistants.duplicate'
  | 'assistants.delete'
  | 'assistants.export'
  | 'assistants.import'
  | 'assistants.previewTools'

/** the store's and the file reader's expected failures, as route errors */
async function explained<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (e instanceof AssistantError) throw new ExpectedError(e.code, e.message)
    if (e instanceof AssistantFileError) throw new ExpectedError('bad_request', e.message)
    throw e
  }
}

export function assistantHandlers(c: HandlerContext): Pick<Handlers, AssistantRoutes> {
  const assistants = c.app.assistants
  return {
    'assistants.list': async () => ({
      assistants: assistants.list(),
      defaultId: DEFAULT_ASSISTANT_ID,
    }),
    'assistants.get': ({ id }) => explained(() => assistants.require(id)),
    'assistants.create': ({ assistant }) => explained(() => assistants.create(assistant)),
    'assistants.update': ({ id, assistant }) => explained(() => assistants.update(id, assistant)),
    'assistants.duplicate': ({ id, name }) => explained(() => assistants.duplicate(id, name)),
    'assistants.delete': ({ id }) => explained(() => ({ deleted: assistants.delete(id) })),
    'assistants.export': ({ id }) => explained(() => exportAssistant(assistants.require(id))),
    'assistants.import': ({ text, allowPolicy }) =>
      explained(() => importAssistant(c.app, text, allowPolicy ? { allowPolicy } : {})),
    'assistants.previewTools': ({ assistant }) => previewAssistantTools(c.app, c.tools, assistant),
  }
}
