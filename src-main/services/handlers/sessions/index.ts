/**
 * The `sessions.*` routes: reading sessions (`reading.ts`: the list, one session, search,
 * export), changing them (`edits.ts`: title, pin, model, deletion) and their context window
 * (`context-window.ts`: compaction, its undo, the measure of the next request).
 */
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'
import { contextWindowHandlers } from './context-window'
import { sessionEditHandlers } from './edits'
import { sessionReadingHandlers } from './reading'

type SessionRoute = Extract<keyof Handlers, `sessions.${string}`>

export function sessionHandlers(c: HandlerContext): Pick<Handlers, SessionRoute> {
  return {
    ...sessionReadingHandlers(c),
    ...sessionEditHandlers(c),
    ...contextWindowHandlers(c),
  }
}
