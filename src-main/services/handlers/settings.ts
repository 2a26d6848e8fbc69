import { isAbsolute } from 'node:path'
import type { ProviderView, SettingsView } from '../../../src-preload/contract/app-dto'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { LOCAL_PROVIDER_ID } from '../providers/local-provider'
import { CAIRN_CLIENT_METADATA_URL } from '../../core/mcp-ports'
import type { HandlerContext } from './handler-context'

type SettingsRoutes = 'settings.get' | 'settings.update'

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
    usage: s.usage,
    mcp: { ...s.mcp, defaultClientMetadataUrl: CAIRN_CLIENT_METADATA_URL },
    attachments: s.attachments,
    mcpRegistryUrl: s.mcpRegistryUrl,
  }
}

export function settingsHandlers(c: HandlerContext): Pick<Handlers, SettingsRoutes> {
  return {
    'settings.get': async () => settingsView(c),
    'settings.update': async (patch) => {
      const { apiKeys, clearAlwaysAllow, revokeAlwaysAllow, limits, ...rest } = patch
      if (rest.defaultWorkspace && !isAbsolute(rest.defaultWorkspace)) {
        const message = `The workspace folder must be an absolute path (got "${rest.defaultWorkspace}").`
        throw new ExpectedError('bad_request', message, {
          details: { fields: { defaultWorkspace: message } },
        })
      }
      // settings that would not be valid are a SettingsValidationError (bad_request)
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
          const message = `There is no provider "${s.activeProviderId}" to make active.`
          throw new ExpectedError('bad_request', message, {
            details: { fields: { activeProviderId: message } },
          })
        }
      })
      for (const [providerId, key] of Object.entries(apiKeys ?? {}))
        c.app.secrets.setApiKey(providerId, key)
      return settingsView(c)
    },
  }
}
