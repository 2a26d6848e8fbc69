/** First run: is a provider configured, and which local servers answer. */
import type { Handlers } from '../../ipc/router'
import { localServerCandidates, probeLocalServers, resolveProvider } from '../provider'
import type { HandlerContext } from './context'

type ProviderRoutes = 'providers.detect' | 'providers.status'

export function providerHandlers(c: HandlerContext): Pick<Handlers, ProviderRoutes> {
  return {
    'providers.detect': async () => ({
      servers: await probeLocalServers(localServerCandidates(c.env), 1500),
    }),
    'providers.status': async () => {
      const s = c.app.settings.get()
      const active = s.providers.find((p) => p.id === s.activeProviderId) ?? null
      // chosen the way a turn chooses it (no flags in a window)
      const chosen = resolveProvider({
        flags: {},
        env: c.env,
        active,
        activeModel: s.activeModel,
        storedKey: () => undefined,
      })
      if (!chosen) return { configured: false, source: null, label: null }
      return {
        configured: true,
        source: chosen.source === 'settings' ? 'settings' : 'env',
        label: chosen.label,
      }
    },
  }
}
