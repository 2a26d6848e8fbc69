/**
 * An in-memory settings host for the settings screens' component tests: `settings.get` and
 * `settings.update` with the host's rules that the screens rely on (a patch replaces the
 * keys it names, limits merge, keys are stored apart and only masked on the way back).
 */
import type { SettingsView } from '../../../src-preload/contract/app-dto'
import type { RouteInput } from '../../../src-preload/contract/routes'
import { RouteFailure, type Handlers } from './test-platform'

export function settingsView(over: Partial<SettingsView> = {}): SettingsView {
  return {
    providers: [],
    activeProviderId: null,
    activeModel: null,
    permissionPolicy: 'ask',
    alwaysAllow: [],
    limits: {
      maxIterations: 25,
      maxToolExecutions: 50,
      deadlineMs: 600_000,
      maxToolOutputChars: 20_000,
      loopThreshold: 3,
      loopMaxWarnings: 1,
      stopOnToolFailure: false,
      stopOnDenied: false,
      maxRetries: 3,
      idleTimeoutMs: 60_000,
      contextTokens: 0,
      maxAnswerChars: 2_000_000,
      maxToolsPerServer: 100,
      keepToolResultsTurns: 10,
      neverCompressTools: [],
      compactAtPercent: 70,
      maxToolsOffered: 40,
    },
    logRetentionDays: 30,
    builtinTools: { disabled: [] },
    defaultWorkspace: null,
    systemPrompt: null,
    generateTitles: false,
    localModels: {
      idleMinutes: 10,
      threads: 0,
      maxContext: 8192,
      hubURL: 'https://huggingface.co',
    },
    mcp: {
      clientMetadataUrl: 'https://cairn.test/client.json',
      defaultClientMetadataUrl: 'https://cairn.test/client.json',
    },
    mcpRegistryUrl: 'https://registry.cairn.test',
    voice: { server: null, finalUtterance: 'send' },
    usage: { monthlyBudget: null, prices: {} },
    attachments: {
      maxImageMB: 20,
      maxDocumentMB: 50,
      maxFiles: 20,
      maxMessageMB: 100,
      imageLongSide: 2048,
    },
    ...over,
  }
}

export function settingsHost(initial: SettingsView = settingsView()) {
  const keys = new Map<string, string>()
  for (const p of initial.providers) if (p.apiKey) keys.set(p.id, 'stored-key-000000')
  let s: SettingsView = structuredClone(initial)
  const updates: RouteInput<'settings.update'>[] = []
  const view = (): SettingsView => ({
    ...structuredClone(s),
    providers: s.providers.map((p) => ({
      ...p,
      apiKey: keys.has(p.id) ? `sto…${keys.get(p.id)!.slice(-4)}` : null,
    })),
  })
  const handlers: Handlers = {
    'settings.get': () => view(),
    'settings.update': (patch) => {
      updates.push(patch)
      const { apiKeys, limits, revokeAlwaysAllow, clearAlwaysAllow, ...rest } = patch
      const next = { ...structuredClone(s), ...(rest as Partial<SettingsView>) }
      if (rest.providers) next.providers = rest.providers.map((p) => ({ ...p, apiKey: null }))
      if (limits) next.limits = { ...next.limits, ...limits }
      if (rest.mcp) next.mcp = { ...s.mcp, ...rest.mcp }
      if (clearAlwaysAllow) next.alwaysAllow = []
      if (revokeAlwaysAllow)
        next.alwaysAllow = next.alwaysAllow.filter(
          (r) =>
            !(
              r.server === revokeAlwaysAllow.server &&
              r.tool === revokeAlwaysAllow.tool &&
              r.fingerprint === revokeAlwaysAllow.fingerprint
            ),
        )
      if (next.activeProviderId && !next.providers.some((p) => p.id === next.activeProviderId))
        throw new RouteFailure('bad_request', `There is no provider "${next.activeProviderId}".`)
      s = next
      for (const [id, key] of Object.entries(apiKeys ?? {})) {
        if (key === null) keys.delete(id)
        else keys.set(id, key)
      }
      return view()
    },
  }
  return { handlers, updates, keys, current: view }
}
