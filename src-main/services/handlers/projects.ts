import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

type ProjectRoutes =
  'projects.list' | 'projects.get' | 'projects.create' | 'projects.update' | 'projects.delete'

/**
 * Projects for the window. A refusal (not there, a name taken, an assistant that does not
 * exist, a relative folder) is the service's ExpectedError. Deleting a project moves its
 * chats to "No project" (the window lists its chats again).
 */
export function projectHandlers(c: HandlerContext): Pick<Handlers, ProjectRoutes> {
  const projects = c.app.projects
  return {
    'projects.list': async () => ({ projects: projects.list() }),
    'projects.get': async ({ id }) => projects.require(id),
    'projects.create': async ({ project }) => projects.create(project),
    'projects.update': async ({ id, patch }) => projects.edit(id, patch),
    'projects.delete': async ({ id }) => {
      const { project: _p, ...deleted } = projects.delete(id)
      return deleted
    },
  }
}
