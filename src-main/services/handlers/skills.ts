/** `skills.list` and `skills.show`: the data directory's skills, as Settings › Skills shows them. */
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

export function skillHandlers(c: HandlerContext): Pick<Handlers, 'skills.list' | 'skills.show'> {
  return {
    'skills.list': async () => ({ skills: c.skills().list(), folder: c.skillsFolder }),
    'skills.show': async ({ name }) => ({ name, text: (await c.skills().read(name)).text }),
  }
}
