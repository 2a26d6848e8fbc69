/**
 * The `providers.*` routes: which local servers answer and what a server says about a model
 * (first run, the settings), whether a provider is configured, and a provider's models.
 */
import { LlmClient } from '../../core/llm/client'
import { ExpectedError } from '../../core/errors'
import { chooseContextWindow } from '../../core/llm/server-info/context-window'
import { detectKind, discoverModel, forgetServerInfo } from '../../core/llm/server-info/discover'
import type { Handlers } from '../../ipc/router'
import { DEFAULT_OLLAMA_MAX_CONTEXT } from '../providers/model-setup'
import {
  detectLocalServer,
  localServerCandidates,
  noProviderHelp,
  probeLocalServers,
  resolveProvider,
} from '../providers/provider'
import { LOCAL_PROVIDER_ID, LOCAL_PROVIDER_NAME } from '../providers/local-provider'
import type { HandlerContext } from './handler-context'

type ServerRoutes = 'providers.detect' | 'providers.info'
type ConfiguredRoutes = 'providers.status' | 'providers.test' | 'providers.models'

/** the provider's models; a provider that fails answers with its code (`auth`, `network`…) */
function models(baseURL: string, apiKey: string | undefined): Promise<string[]> {
  return new LlmClient({ baseURL, ...(apiKey ? { apiKey } : {}) }, { fetch }).listModels(
    AbortSignal.timeout(15_000),
  )
}

/**
 * The provider a new chat would use, chosen the way a turn chooses it (a window has no
 * flags): the environment, then the settings' default.
 */
export function newChatProvider(
  c: HandlerContext,
  storedKey: (providerId: string) => string | undefined,
): ReturnType<typeof resolveProvider> {
  const s = c.app.settings.get()
  const active = s.providers.find((p) => p.id === s.activeProviderId) ?? null
  return resolveProvider({ flags: {}, env: c.env, active, activeModel: s.activeModel, storedKey })
}

export function providerHandlers(
  c: HandlerContext,
): Pick<Handlers, ServerRoutes | ConfiguredRoutes> {
  return { ...serverHandlers(c), ...configuredHandlers(c) }
}

/** what the servers say: which local ones answer, what one says about a model */
function serverHandlers(c: HandlerContext): Pick<Handlers, ServerRoutes> {
  return {
    'providers.detect': async () => ({
      servers: await probeLocalServers(localServerCandidates(c.env), 1500),
    }),
    'providers.info': async ({ baseURL, model, ollamaNativeApi, ollamaMaxContext, fresh }) => {
      // the settings screen asks for what the server says now, not what it said earlier
      if (fresh) forgetServerInfo(baseURL)
      if (!model) {
        return {
          kind: await detectKind(baseURL, { fetch }),
          model: null,
          contextWindow: null,
          trainedContext: null,
          problems: [],
        }
      }
      const info = await discoverModel(baseURL, model, { fetch })
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
  }
}

/** the providers the settings and the environment configure */
function configuredHandlers(c: HandlerContext): Pick<Handlers, ConfiguredRoutes> {
  return {
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
    'providers.test': async ({ baseURL, apiKey, providerId }) => ({
      models: await models(
        baseURL,
        apiKey ?? (providerId ? c.app.secrets.getApiKey(providerId) : undefined),
      ),
    }),
    'providers.models': async ({ providerId }) => {
      const s = c.app.settings.get()
      if (providerId === LOCAL_PROVIDER_ID) {
        const local = c.app.models.list().map((m) => m.name)
        return { models: local, defaultModel: local[0] ?? null }
      }
      if (providerId) {
        const provider = s.providers.find((p) => p.id === providerId)
        if (!provider) throw new ExpectedError('not_found', `There is no provider "${providerId}".`)
        return {
          models: await models(provider.baseURL, c.app.secrets.getApiKey(provider.id)),
          defaultModel: provider.defaultModel ?? null,
        }
      }
      const chosen = newChatProvider(c, (id) => c.app.secrets.getApiKey(id))
      const local = c.app.models.list().map((m) => m.name)
      if (!chosen && (s.activeProviderId === LOCAL_PROVIDER_ID || local.length > 0)) {
        const active = s.activeProviderId === LOCAL_PROVIDER_ID ? s.activeModel : null
        return { models: local, defaultModel: active ?? local[0] ?? null }
      }
      if (chosen) {
        return {
          models: await models(chosen.baseURL, chosen.apiKey),
          defaultModel: chosen.model ?? null,
        }
      }
      const candidates = localServerCandidates(c.env)
      const found = await detectLocalServer(candidates)
      if (!found) throw new ExpectedError('not_found', noProviderHelp(candidates))
      return { models: found.models, defaultModel: found.models[0] ?? null }
    },
  }
}
