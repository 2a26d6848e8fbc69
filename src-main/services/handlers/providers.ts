/** First run: is a provider configured, and which local servers answer. */
import type { Handlers } from '../../ipc/router'
import { localServerCandidates, probeLocalServers } from '../provider'
import { newChatProvider } from './settings'
import type { HandlerContext } from './context'

type ProviderRoutes = 'providers.detect' | 'providers.status'

export function providerHandlers(c: HandlerContext): Pick<Handlers, ProviderRoutes> {
  return {
    'providers.detect': async () => ({
      servers: await probeLocalServers(localServerCandidates(c.env), 1500),
    }),
    'providers.status': async () => {
      // whether one is configured, not its key: no stored key is read
      const chosen = newChatProvider(c, () => undefined)
      if (!chosen) return { configured: false, source: null, label: null }
      return {
        configured: true,
        source: chosen.source === 'settings' ? 'settings' : 'env',
        label: chosen.label,
      }
    },
  }
}
