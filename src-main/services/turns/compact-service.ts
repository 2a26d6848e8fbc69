/**
 * Compaction on request (`/compact`, the `sessions.compact` route): the middle of a
 * session's conversation is summarized now, with the model its next turn would use, and
 * the summary saved like one a turn writes. Holds the session's lease while it runs, so it
 * never races a turn. The measure of a request (`sessions.context`) is the turn's own.
 */
import { randomUUID } from 'node:crypto'
import type { SessionRecord, StoredMessage } from '../../../src-preload/contract/dto'
import type { RouteOutputs } from '../../../src-preload/contract/routes'
import type { SettingsData } from '../../../src-preload/contract/settings-schema'
import { compactHistory } from '../../core/agent/compaction'
import { viewOf } from '../../core/agent/prepare-request-view'
import { DEFAULT_LIMITS, type TurnLimits } from '../../core/agent/limits'
import { modelForTier } from '../../core/agent/model-tiers'
import { systemClock } from '../../core/clock'
import type { AttachmentReader } from '../../core/ports'
import type { AppServices } from '../host/app-services'
import { setupModel } from '../providers/model-setup'
import { sessionWindow } from './session-windows'
import { providerKey } from '../providers/local-provider'
import { chooseProvider, SetupError } from './turn-plan'

function limitsOf(settings: SettingsData): TurnLimits {
  return { ...DEFAULT_LIMITS, ...settings.limits }
}

/**
 * The estimated tokens of the request a session's next turn would send: attached documents
 * by their text, attached images by their size (`imageTokens`), which needs no pixels.
 */
function measure(
  app: AppServices,
  session: SessionRecord | null,
  limits: TurnLimits,
  history: readonly StoredMessage[],
): number {
  const attachments: AttachmentReader = {
    imageDataUrl: () => 'data:,',
    text: (part) => app.attachments.reader.text(part),
  }
  const ctx = {
    deps: { llm: { provider: session?.provider ?? '', model: session?.model ?? '' }, attachments },
    req: { systemPrompt: session?.systemPrompt ?? null, limits },
  } as Parameters<typeof viewOf>[0]
  // no environment, so no hot context: the todo list is not shown
  return viewOf(ctx, history, [], []).tokens
}

export function sessionContext(
  app: AppServices,
  sessionId: string,
): RouteOutputs['sessions.context'] {
  const limits = limitsOf(app.settings.get())
  // the window the session's last turn had (the server's, a model's setting…), if one ran here
  const used = limits.contextTokens > 0 ? sessionWindow(sessionId) : null
  return {
    estimatedTokens: measure(
      app,
      app.store.getSession(sessionId),
      limits,
      app.store.listMessages(sessionId),
    ),
    windowTokens: used?.tokens ?? limits.contextTokens,
    compactAtPercent: limits.compactAtPercent,
    windowSource: used
      ? `${used.source} (the window of this chat's last answer)`
      : 'the settings (limits.contextTokens); a turn may use the window the server reports',
  }
}

export async function compactSession(
  app: AppServices,
  sessionId: string,
  env: NodeJS.ProcessEnv,
  owner = 'compact',
): Promise<RouteOutputs['sessions.compact']> {
  const session = app.store.getSession(sessionId)
  if (!session) throw new SetupError(`There is no session "${sessionId}".`, 'no_session')
  const got = app.store.leases.acquire(sessionId, owner)
  if (!got.ok) throw new SetupError(got.busy, 'busy')
  try {
    // the provider the session's next turn would use (its assistant's, else the configured one)
    const assistant = app.assistants.forSession(sessionId).assistant
    const settings = app.settings.get()
    const provider = await chooseProvider(
      app,
      settings,
      assistant,
      { flags: {}, env },
      (served) => served[0],
    )
    const utilityModel = assistant.utilityModel ?? provider.utilityModel
    if (provider.apiKey) app.registerSecret(provider.apiKey)
    const model = session.model || provider.model
    if (!model) throw new SetupError('This session has no model yet.', 'no_model')
    const limits = limitsOf(settings)
    const setup = await setupModel(provider, model, { fallbackWindow: limits.contextTokens })
    const history = app.store.listMessages(sessionId)
    const done = await compactHistory({
      history,
      measure: (h) => measure(app, session, limits, h),
      windowTokens: setup.window.tokens,
      triggerRatio: limits.compactAtPercent / 100,
      force: true,
      model: modelForTier(
        {
          client: setup.client,
          baseURL: setup.requestURL,
          provider: providerKey(provider),
          model,
          ...(utilityModel ? { utilityModel } : {}),
        },
        'utility',
      ),
      signal: AbortSignal.timeout(5 * 60_000),
      now: () => systemClock.now(),
      save: (m) => app.store.appendMessage(sessionId, m),
      log: { logger: app.logger, sessionId, turnId: randomUUID(), round: 1 },
    })
    const tokens = done?.tokensBefore ?? measure(app, session, limits, history)
    return {
      compacted: done !== null,
      summaryId: done?.summary.id ?? null,
      coveredFrom: done?.coveredFrom ?? null,
      coveredTo: done?.coveredTo ?? null,
      tokensBefore: tokens,
      tokensAfter: done?.tokensAfter ?? tokens,
      fallback: done?.fallback ?? false,
    }
  } finally {
    got.lease.release()
  }
}
