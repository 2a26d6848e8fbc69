/** `usage.report` and `usage.budget`: what the stored answers used and cost (Settings › Usage). */
import type { Handlers } from '../../ipc/router'
import { budgetStatus, usageReport } from '../usage/usage-report'
import type { HandlerContext } from './handler-context'

export function usageHandlers(c: HandlerContext): Pick<Handlers, 'usage.report' | 'usage.budget'> {
  return {
    'usage.report': async ({ since, until, by }) =>
      usageReport(c.app.usage, c.app.settings.get(), {
        since: since ?? null,
        until: until ?? null,
        by,
      }),
    'usage.budget': async () => budgetStatus(c.app.usage, c.app.settings.get(), Date.now()),
  }
}
