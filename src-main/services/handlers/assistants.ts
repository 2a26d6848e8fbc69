import { RouteError, type Handlers } from '../../ipc/router'
import type { HandlerContext } from './context'

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
  | 'sessions.setAssistant'

const notYet = async (): Promise<never> => {
  throw new RouteError('unavailable', 'Assistants are not stored yet in this version.')
}

/** The assistants routes (the contract is in place; the store lands next). */
export function assistantHandlers(_c: HandlerContext): Pick<Handlers, AssistantRoutes> {
  return {
    'assistants.list': notYet,
    'assistants.get': notYet,
    'assistants.create': notYet,
    'assistants.update': notYet,
    'assistants.duplicate': notYet,
    'assistants.delete': notYet,
    'assistants.export': notYet,
    'assistants.import': notYet,
    'assistants.previewTools': notYet,
    'sessions.setAssistant': notYet,
  }
}
