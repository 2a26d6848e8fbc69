import type { StoredMessage, TodoItem } from '../../../src-preload/contract/dto'
import { estimateRequestTokens } from '../llm/estimate'
import type { WireMessage, WireTool } from '../llm/types'
import { compactHistory } from './compaction'
import { compressOldToolResults } from './compress-tool-results'
import { windowInEstimateTokens } from '../llm/calibration'
import { fitToContext } from './context-fit'
import { hotSystemPrompt } from './hot-context'
import { modelForTier } from './model-tiers'
import { buildRequestView } from './request-view'
import type { TurnState } from './turn-state'
import { fitDocuments } from './fit-documents'
import type { DocumentCaps, DocumentSent } from './user-attachments'

/**
 * The request-time view, built before every LLM call (its system prompt assembled afresh:
 * `hot-context.ts`), in this order (each step counted in
 * the diagnostics the turn log keeps): provider hygiene and earlier versions
 * (`request-view.ts`, which also puts summaries in place of what they cover); old tool
 * results cut (`compress-tool-results.ts`); past `compactAtPercent` of the window, the
 * middle of the conversation summarized (`compaction.ts`); still too large, the oldest
 * whole turns left out (`context-fit.ts`), which the user is warned about. The stored
 * history is never rewritten: a summary is a message of its own.
 */
export interface RequestViewDiagnostics {
  /** the window, in the estimate's units (calibrated: see `charsPerToken`) */
  windowTokens: number
  /** the model's learned characters per token; null: the estimate's default */
  charsPerToken: number | null
  estimatedTokens: number
  flattenedToolCalls: number
  omitted: number
  summarized: number
  compressedToolResults: number
  compaction: {
    coveredFrom: number
    coveredTo: number
    tokensBefore: number
    tokensAfter: number
    fallback: boolean
  } | null
  trimmed: { droppedMessages: number; droppedRounds: number; shortenedToolResults: number } | null
  /** attached documents sent cut to fit the window: characters extracted and sent */
  documentsCut?: { name: string; chars: number; sent: number }[]
}

export interface View {
  messages: WireMessage[]
  pinned: Set<WireMessage>
  tokens: number
  /** the attached documents the view carries */
  documents: DocumentSent[]
  diagnostics: Omit<
    RequestViewDiagnostics,
    'windowTokens' | 'charsPerToken' | 'compaction' | 'trimmed'
  >
}

/**
 * steps 1 and 2: what would be sent for `history`, before any compaction or trimming;
 * `todos` is the session's todo list, read once a round (the hot context shows it)
 */
export function viewOf(
  ctx: Pick<TurnState, 'deps' | 'req'>,
  history: readonly StoredMessage[],
  tools: readonly WireTool[],
  todos: readonly TodoItem[],
  caps?: DocumentCaps,
): View {
  const { llm } = ctx.deps
  const environment = ctx.req.environment
  const systemPrompt = environment
    ? hotSystemPrompt({
        userPrompt: ctx.req.systemPrompt,
        environment,
        now: ctx.deps.clock.now(),
        todos,
        history,
      })
    : ctx.req.systemPrompt
  const documents: DocumentSent[] = []
  const v = buildRequestView(history, {
    provider: llm.provider,
    model: llm.model,
    systemPrompt,
    imageInput: llm.imageInput === true,
    ...(llm.attachedImages === false ? { attachedImages: false } : {}),
    attachments: { reader: ctx.deps.attachments, caps, documents },
  })
  const c = compressOldToolResults(v.messages, {
    keepTurns: ctx.req.limits.keepToolResultsTurns,
    neverCompress: ctx.req.limits.neverCompressTools,
  })
  const pinned = new Set<WireMessage>()
  v.messages.forEach((m, i) => {
    if (v.pinned.has(m)) pinned.add(c.messages[i]!)
  })
  const tokens = estimateRequestTokens(c.messages, tools)
  return {
    messages: c.messages,
    pinned,
    tokens,
    documents,
    diagnostics: { ...v.diagnostics, estimatedTokens: tokens, compressedToolResults: c.compressed },
  }
}

/** The request-time view of this round: built, compacted past the threshold, then fitted. */
export async function prepareRequestView(
  ctx: TurnState,
  tools: readonly WireTool[],
  round: number,
): Promise<{ messages: WireMessage[]; diagnostics: RequestViewDiagnostics }> {
  // the window in the estimate's units: a model whose tokens are shorter than the estimate
  // assumes fills its window sooner (learned from the usage its server reports)
  const { llm, calibration } = ctx.deps
  const charsPerToken = calibration?.charsPerToken(llm.provider, llm.model) ?? null
  const window = windowInEstimateTokens(ctx.req.limits.contextTokens, charsPerToken)
  // the session is read once a round: compaction measures the view several times
  const todos = ctx.req.environment
    ? (ctx.deps.store.getSession(ctx.req.sessionId)?.todos ?? [])
    : []
  const build = (history: readonly StoredMessage[]): View => viewOf(ctx, history, tools, todos)
  let view = build(ctx.history)
  const compaction = await compactPastThreshold(ctx, view, build, window, round)
  if (compaction) view = build(ctx.history)
  const documents = fitDocuments(view, window, (caps) =>
    viewOf(ctx, ctx.history, tools, todos, caps),
  )
  if (documents) {
    view = documents.view
    if (round === 1) ctx.emit({ type: 'notice', level: 'warning', message: documents.notice })
  }
  const fitted = fitView(ctx, view, tools, window)
  return {
    messages: fitted.messages,
    diagnostics: {
      ...view.diagnostics,
      windowTokens: window,
      charsPerToken,
      estimatedTokens: fitted.estimatedTokens,
      compaction,
      trimmed: fitted.trimmed,
      ...(documents ? { documentsCut: documents.cut } : {}),
    },
  }
}

/**
 * Past `compactAtPercent` of the window, summarizes the middle of the conversation (the
 * summary is saved, so the history grows by it) and says so; null when it did not.
 */
async function compactPastThreshold(
  ctx: TurnState,
  view: View,
  build: (history: readonly StoredMessage[]) => View,
  window: number,
  round: number,
): Promise<RequestViewDiagnostics['compaction']> {
  const percent = ctx.req.limits.compactAtPercent ?? 70
  if (window <= 0 || view.tokens <= (window * percent) / 100) return null
  const { logger, clock } = ctx.deps
  const done = await compactHistory({
    history: ctx.history,
    measure: (h) => build(h).tokens,
    windowTokens: window,
    triggerRatio: percent / 100,
    model: modelForTier(ctx.deps.llm, 'utility'),
    signal: ctx.signal,
    now: () => clock.now(),
    save: (m) => ctx.save(m),
    ...(logger
      ? { log: { logger, sessionId: ctx.req.sessionId, turnId: ctx.req.turnId, round } }
      : {}),
  })
  if (!done) return null
  const compaction = {
    coveredFrom: done.coveredFrom,
    coveredTo: done.coveredTo,
    tokensBefore: done.tokensBefore,
    tokensAfter: done.tokensAfter,
    fallback: done.fallback,
  }
  ctx.emit({ type: 'context_compacted', ...compaction, summaryId: done.summary.id })
  ctx.emit({
    type: 'notice',
    level: done.fallback ? 'warning' : 'info',
    message: done.fallback
      ? `The earlier conversation could not be summarized (${done.error ?? 'the call failed'}), so its messages were cut to their first 200 characters for the model; the stored conversation is unchanged.`
      : `The earlier conversation was summarized to fit the context window (about ${done.tokensBefore} → ${done.tokensAfter} tokens); the stored conversation is unchanged, and the summary can be undone.`,
  })
  return compaction
}

/** The backstop: still too large, the oldest whole turns are left out (and the user told). */
function fitView(
  ctx: TurnState,
  view: View,
  tools: readonly WireTool[],
  window: number,
): {
  messages: WireMessage[]
  estimatedTokens: number
  trimmed: RequestViewDiagnostics['trimmed']
} {
  const fitted = fitToContext(view.messages, tools, { maxTokens: window, keep: view.pinned })
  const f = fitted.diagnostics
  let trimmed: RequestViewDiagnostics['trimmed'] = null
  if (f.omittedMessages > 0 || f.shortenedToolResults > 0) {
    trimmed = {
      droppedMessages: f.omittedMessages,
      droppedRounds: f.omittedRounds,
      shortenedToolResults: f.shortenedToolResults,
    }
  }
  if (f.omittedMessages > 0) {
    ctx.emit({
      type: 'context_trimmed',
      droppedMessages: f.omittedMessages,
      droppedRounds: f.omittedRounds,
      tokensBefore: view.tokens,
      tokensAfter: f.estimatedTokens,
    })
  }
  return { messages: fitted.messages, estimatedTokens: f.estimatedTokens, trimmed }
}
