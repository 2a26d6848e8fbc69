/** First run: is a provider configured, and which local servers answer. */
import { chooseContextWindow } from '../../core/llm/server-info/context-window'
import { detectKind, discoverModel, forgetServerInfo } from '../../core/llm/server-info/discover'
import type { Handlers } from '../../ipc/router'
import { DEFAULT_OLLAMA_MAX_CONTEXT } from '../providers/model-setup'
import { localServerCandidates, probeLocalServers } from '../providers/provider'
import { LOCAL_PROVIDER_ID, LOCAL_PROVIDER_NAME } from '../providers/local-provider'
import { newChatProvider } from './settings'
import type { HandlerContext } from './handler-context'

type ProviderRoutes = 'providers.detect' | 'providers.status' | 'providers.info'

export function providerHandlers(c: HandlerContext): Pick<Handlers, ProviderRoutes> {
  return {
    'providers.detect': async () => ({
      servers: await probeLocalServers(localServerCandidates(c.env), 1500),
    }),
    'providers.info': async ({ baseURL, model, ollamaNativeApi, ollamaMaxContext, fresh }) => {
      // the settings screen asks for what the server says now, not what it said earlier
      if (fresh) forgetServerInfo(baseURL)
      if (!model) {
        return {
          kind: await detectKind(baseURL),
          model: null,
          contextWindow: null,
          trainedContext: null,
          problems: [],
        }
      }
      const info = await discoverModel(baseURL, model)
      const window = chooseContextWindow(info, model, {
        ollamaNative: ollamaNativeApi !== false,
        ollamaMaxContext: ollamaMaxContext ?? DEFAULT_OLLAMA_MAX_CONTEXT,
        fallback: c.app.settings.get().limits.contextTokens,
      })
      return {
        kind: info.kind,
        model: info.capabilities,
        contextWindow: { tokens: window.tokens, source: window.source },
        trainedContext: info.ollama?.trainedContext ?? null,
        problems: info.problems,
      }
    },
    'providers.status': async () => {
      // whether one is configured, not its key: no stored key is read
      const chosen = newChatProvider(c, () => undefined)
      if (!chosen) {
        // the built-in `local` provider: chosen, or the default once a model is added
        const s = c.app.settings.get()
        if (s.activeProviderId === LOCAL_PROVIDER_ID || c.app.models.list().length > 0)
          return { configured: true, source: 'settings', label: LOCAL_PROVIDER_NAME }
        return { configured: false, source: null, label: null }
      }
      return {
        configured: true,
        source: chosen.source === 'settings' ? 'settings' : 'env',
        label: chosen.label,
      }
    },
  }
}
