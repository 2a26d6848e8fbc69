import { isAbsolute } from 'node:path'
import type { ProviderView, SettingsView } from '../../../src-preload/contract/app-dto'
import { SettingsValidationError } from '../../adapters/settings/settings-store'
import { LlmClient } from '../../core/llm/client'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { LOCAL_PROVIDER_ID } from '../providers/local-provider'
import {
  detectLocalServer,
  localServerCandidates,
  noProviderHelp,
  resolveProvider,
} from '../providers/provider'
import type { HandlerContext } from './handler-context'

type SettingsRoutes =
  'settings.get' | 'settings.update' | 'providers.test' | 'providers.models' | 'tools.builtins'

/** A key is never sent back: only enough to recognise it. */
export function maskKey(key: string | undefined): string | null {
  if (!key) return null
  return key.length > 12 ? `${key.slice(0, 3)}…${key.slice(-4)}` : '••••'
}

export function settingsView(c: HandlerContext): SettingsView {
  const s = c.app.settings.get()
  const providers: ProviderView[] = s.providers.map((p) => ({
    ...p,
    apiKey: maskKey(c.app.secrets.getApiKey(p.id)),
  }))
  return {
    providers,
    activeProviderId: s.activeProviderId,
    activeModel: s.activeModel,
    permissionPolicy: s.permissionPolicy,
    alwaysAllow: s.alwaysAllow,
    limits: s.limits,
    logRetentionDays: s.logRetentionDays,
    builtinTools: s.builtinTools,
    defaultWorkspace: s.defaultWorkspace,
    systemPrompt: s.systemPrompt,
    generateTitles: s.generateTitles,
    voice: s.voice,
    localModels: s.localModels,
  }
}

/** the provider's models; a provider that fails answers with its code (`auth`, `network`…) */
function models(baseURL: string, apiKey: string | undefined): Promise<string[]> {
  return new LlmClient({ baseURL, ...(apiKey ? { apiKey } : {}) }).listModels(
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

export function settingsHandlers(c: HandlerContext): Pick<Handlers, SettingsRoutes> {
  return {
    'settings.get': async () => settingsView(c),
    'settings.update': async (patch) => {
      const { apiKeys, clearAlwaysAllow, revokeAlwaysAllow, limits, ...rest } = patch
      if (rest.defaultWorkspace && !isAbsolute(rest.defaultWorkspace)) {
        throw new ExpectedError(
          'bad_request',
          `The workspace folder must be an absolute path (got "${rest.defaultWorkspace}").`,
        )
      }
      try {
        await c.app.settings.update((s) => {
          for (const [key, value] of Object.entries(rest)) {
            if (value !== undefined) (s as unknown as Record<string, unknown>)[key] = value
          }
          if (limits) s.limits = { ...s.limits, ...limits }
          if (clearAlwaysAllow) s.alwaysAllow = []
          if (revokeAlwaysAllow) {
            const { server, tool, fingerprint } = revokeAlwaysAllow
            s.alwaysAllow = s.alwaysAllow.filter(
              (r) => !(r.server === server && r.tool === tool && r.fingerprint === fingerprint),
            )
          }
          if (
            s.activeProviderId &&
            s.activeProviderId !== LOCAL_PROVIDER_ID &&
            !s.providers.some((p) => p.id === s.activeProviderId)
          ) {
            throw new ExpectedError(
              'bad_request',
              `There is no provider "${s.activeProviderId}" to make active.`,
            )
          }
        })
      } catch (e) {
        if (e instanceof SettingsValidationError) throw new ExpectedError('bad_request', e.message)
        throw e
      }
      for (const [providerId, key] of Object.entries(apiKeys ?? {}))
        c.app.secrets.setApiKey(providerId, key)
      return settingsView(c)
    },
    'providers.test': async ({ baseURL, apiKey, providerId }) => ({
      models: await models(
        baseURL,
        apiKey ?? (providerId ? c.app.secrets.getApiKey(providerId) : undefined),
      ),
    }),
    'tools.builtins': async () => ({
      tools: c.tools.builtins(),
      defaultWorkspace: c.app.defaultWorkspace(),
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
