/**
 * Changing a session: its title, its pin, the model and the assistant its next turn uses
 * (a running turn keeps what it started with), the branch it shows, and deleting it with
 * its turn logs.
 */
import { ExpectedError } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import { switchSessionAssistant } from '../../assistants/assistant-setup'
import { forkAt } from '../../turns/branch-start'
import type { HandlerContext } from '../handler-context'
import { existingSession, sessionChanged } from '../session-lookup'

type EditRoutes =
  | 'sessions.rename'
  | 'sessions.pin'
  | 'sessions.setModel'
  | 'sessions.setAssistant'
  | 'sessions.setProject'
  | 'sessions.delete'
  | 'sessions.openBranch'
  | 'sessions.fork'

export function sessionEditHandlers(c: HandlerContext): Pick<Handlers, EditRoutes> {
  const store = c.app.store
  /** `change` on an existing session; the windows are told */
  const edit = <T>(id: string, change: () => T): T => {
    existingSession(c, id)
    const result = change()
    sessionChanged(c, id)
    return result
  }
  return {
    'sessions.rename': async ({ id, title }) =>
      edit(id, () => store.renameSession(id, title.trim())),
    'sessions.pin': async ({ id, pinned }) => edit(id, () => store.setPinned(id, pinned)),
    'sessions.setModel': async ({ id, model }) =>
      edit(id, () => {
        const name = model.trim()
        if (name === '') throw new ExpectedError('bad_request', 'The model name is empty.')
        return store.updateSession(id, { model: name })
      }),
    'sessions.setAssistant': async ({ id, assistantId }) =>
      edit(id, () => {
        const assistant = c.app.assistants.get(assistantId)
        if (!assistant)
          throw new ExpectedError('not_found', `There is no assistant "${assistantId}".`)
        return switchSessionAssistant(c.app, id, assistant)
      }),
    // a project that is not there is the service's not_found
    'sessions.setProject': async ({ id, projectId }) =>
      edit(id, () => c.app.projects.moveSession(id, projectId)),
    'sessions.openBranch': async ({ id, seq, messageId }) => {
      if (c.turns.isRunning(id)) {
        throw new ExpectedError(
          'conflict',
          'A turn is running in this chat: wait for it or stop it, then switch versions.',
        )
      }
      return edit(id, () => {
        const at = seq ?? store.listMessages(id).find((m) => m.id === messageId)?.seq
        const session = at === undefined ? null : store.openBranchAt(id, at)
        if (!session) {
          const which = seq !== undefined ? `number ${seq}` : `"${messageId}"`
          throw new ExpectedError('not_found', `This chat has no message ${which} to show.`)
        }
        return session
      })
    },
    'sessions.fork': async ({ id, seq, messageId }) => {
      existingSession(c, id)
      const fork = forkAt(store, id, seq ?? messageId!)
      sessionChanged(c, fork.id)
      return fork
    },
    'sessions.delete': async ({ id }) => {
      if (c.turns.isRunning(id))
        throw new ExpectedError('conflict', 'A turn is running in this session: stop it first.')
      const deleted = store.deleteSession(id)
      if (deleted) {
        await c.app.turnLogs.deleteSession(id)
        sessionChanged(c, id, true)
      }
      return { deleted }
    },
  }
}
