import { DEFAULT_ASSISTANT_ID } from '../../../src-preload/contract/assistants'
import type { Handlers } from '../../ipc/router'
import { exportAssistant, importAssistant } from '../assistants/assistant-files'
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

export function assistantHandlers(c: HandlerContext): Pick<Handlers, AssistantRoutes> {
  const assistants = c.app.assistants
  return {
    // a refusal (not there, a name taken, a file that is not one) is the store's ExpectedError
    'assistants.list': async () => ({
      assistants: assistants.list(),
      defaultId: DEFAULT_ASSISTANT_ID,
    }),
    'assistants.get': async ({ id }) => assistants.require(id),
    'assistants.create': async ({ assistant }) => assistants.create(assistant),
    'assistants.update': async ({ id, assistant }) => assistants.update(id, assistant),
    'assistants.duplicate': async ({ id, name }) => assistants.duplicate(id, name),
    'assistants.delete': async ({ id }) => ({ deleted: assistants.delete(id) }),
    'assistants.export': async ({ id }) => exportAssistant(assistants.require(id)),
    'assistants.import': async ({ text, allowPolicy }) =>
      importAssistant(c.app, text, allowPolicy ? { allowPolicy } : {}),
    'assistants.previewTools': ({ assistant }) => previewAssistantTools(c.app, c.tools, assistant),
  }
}
