export type * from './dto'
export type * from './events'
export type * from './app-dto'
export type * from './app-events'
export type * from './bridge'
export type * from './assistants'
export {
  assistantDraftSchema,
  assistantFileSchema,
  assistantSchema,
} from './assistants'
export { CHANNELS } from './bridge'
export { routeInputs } from './routes'
export type * from './routes'
