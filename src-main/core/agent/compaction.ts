import type { NewMessage, StoredMessage, Usage } from '../../../src-preload/contract/dto'
import { attachmentStandIn, describeAttachment, isAttachment } from '../attachments/describe'
import { CHARS_PER_TOKEN } from '../llm/estimate'
import type { ChatRequest } from '../llm/types'
import type { TurnLogger } from '../ports'
import { planCompaction, type CompactionPlan } from './compaction-plan'
import type { TierModel } from './model-tiers'

/**
 * Compaction: the middle of a long conversation is summarized by the model in a separate,
 * non-streamed call at a low temperature, and the summary is saved as a `summary` message
 * that records the seqs it stands in for. The covered messages stay stored as they were;
 * the request view sends the summary in their place. If the summary call fails, the
 * covered messages cut to their first 200 characters stand in for them instead (`fallback`).
 */
export interface CompactInput {
  history: readonly StoredMessage[]
  /** estimated tokens of the request built from a history */
  measure: (history: readonly StoredMessage[]) => number
  /** the context window (tokens); 0: unknown */
  windowTokens: number
  /** compact only past this share of the window (e.g. 0.7); ignored with `force` */
  triggerRatio: number
  /** compact down to about this share of the window */
  targetRatio?: number
  /** `/compact`: summarize all of the middle, whatever the size */
  force?: boolean
  model: TierModel
  signal: AbortSignal
  save: (message: NewMessage) => StoredMessage
  /** the clock (ms) */
  now: () => number
  /** the summary call is logged like any other */
  log?: { logger: TurnLogger; sessionId: string; turnId: string; round: number }
}

export interface CompactResult {
  summary: StoredMessage
  coveredFrom: number
  coveredTo: number
  tokensBefore: number
  tokensAfter: number
  fallback: boolean
  /** why the summary call failed (with `fallback`) */
  error: string | null
  usage: Usage | null
}

export const TARGET_RATIO = 0.4
export const SUMMARY_TEMPERATURE = 0.2
const FALLBACK_CHARS = 200
const SUMMARY_PROMPT =
  'You summarize the earlier part of a conversation between a user and an AI assistant, so ' +
  'that the assistant can carry on without it. Keep what matters later: what the user wants, ' +
  'facts and numbers, decisions, names, file paths, commands and their outcomes, errors, and ' +
  'open questions. Write short plain sentences or bullet points, in the language of the ' +
  'conversation, with no preamble.'

export async function compactHistory(input: CompactInput): Promise<CompactResult | null> {
  const tokensBefore = input.measure(input.history)
  const window = input.windowTokens
  if (!input.force && (window <= 0 || tokensBefore <= window * input.triggerRatio)) return null
  const summaryTokens = window > 0 ? Math.min(2_000, Math.ceil(window * 0.1)) : 2_000
  const plan = planCompaction(input.history, {
    currentTokens: tokensBefore,
    targetTokens: input.force ? 0 : window * (input.targetRatio ?? TARGET_RATIO),
    summaryTokens,
  })
  if (!plan) return null

  let content: string
  let fallback = false
  let error: string | null = null
  let usage: Usage | null = null
  try {
    const written = await summarize(input, plan, window)
    content = written.content.trim()
    usage = written.usage
  } catch (e) {
    if (input.signal.aborted) throw e
    fallback = true
    error = e instanceof Error ? e.message : String(e)
    content = cutTranscript(plan)
  }
  // each attachment of what the summary stands in for keeps a line of its own
  const standIns = plan.covered.flatMap((m) => (m.parts ?? []).filter(isAttachment))
  if (standIns.length > 0) content += `\n\n${standIns.map(attachmentStandIn).join('\n')}`
  const summary = input.save({
    role: 'user',
    kind: 'summary',
    content,
    covers: { from: plan.from, to: plan.to },
    provider: input.model.provider,
    model: input.model.model,
    usage,
  })
  const tokensAfter = input.measure([...input.history, summary])
  return {
    summary,
    coveredFrom: plan.from,
    coveredTo: plan.to,
    tokensBefore,
    tokensAfter,
    fallback,
    error,
    usage,
  }
}

async function summarize(
  input: CompactInput,
  plan: CompactionPlan,
  window: number,
): Promise<{ content: string; usage: Usage | null }> {
  const { client } = input.model
  const maxChars = window > 0 ? Math.floor(window * CHARS_PER_TOKEN * 0.6) : 400_000
  const request: ChatRequest = {
    model: input.model.model,
    messages: [
      { role: 'system', content: SUMMARY_PROMPT },
      {
        role: 'user',
        content: `Summarize this part of the conversation:\n\n${transcript(plan, maxChars)}`,
      },
    ],
    params: { temperature: SUMMARY_TEMPERATURE },
  }
  const handle = input.log
    ? await input.log.logger
        .begin(input.log.sessionId, {
          baseURL: input.model.baseURL,
          model: input.model.model,
          body: client.complete
            ? { ...client.buildBody(request), stream: false }
            : client.buildBody(request),
          turnId: input.log.turnId,
          round: input.log.round,
          attempt: 1,
        })
        .catch(() => null)
    : null
  const started = input.now()
  try {
    const result = await completeQuietly(client, request, input.signal)
    await handle
      ?.finish({
        content: result.content,
        reasoning: null,
        toolCalls: [],
        finishReason: 'stop',
        usage: result.usage,
        latencyMs: input.now() - started,
        timeToFirstTokenMs: null,
        retries: [],
        error: null,
        status: 'complete',
      })
      .catch(() => undefined)
    return result
  } catch (e) {
    await handle
      ?.finish({
        content: '',
        reasoning: null,
        toolCalls: [],
        finishReason: null,
        usage: null,
        latencyMs: input.now() - started,
        timeToFirstTokenMs: null,
        retries: [],
        error: { code: 'summary_failed', message: e instanceof Error ? e.message : String(e) },
        status: 'error',
      })
      .catch(() => undefined)
    throw e
  }
}

function line(m: StoredMessage, max: number): string {
  const cut = (s: string): string => (s.length > max ? `${s.slice(0, max)}…` : s)
  if (m.kind === 'summary') return `[Summary of an earlier part]\n${cut(m.content)}`
  switch (m.role) {
    case 'user': {
      const files = (m.parts ?? []).filter(isAttachment).map(describeAttachment)
      return `User: ${cut(m.content)}${files.length ? `\n(attached: ${files.join('; ')})` : ''}`
    }
    case 'assistant': {
      const calls = (m.toolCalls ?? []).map((c) => `Assistant called ${c.name} ${cut(c.arguments)}`)
      return [m.content ? `Assistant: ${cut(m.content)}` : '', ...calls].filter(Boolean).join('\n')
    }
    case 'tool':
      return `Result of ${m.toolName ?? 'a tool'}: ${cut(m.content)}`
    default:
      return `${m.role}: ${cut(m.content)}`
  }
}

/** what the summary call reads, within `maxChars` */
function transcript(plan: CompactionPlan, maxChars: number): string {
  const per = Math.max(200, Math.floor(maxChars / Math.max(1, plan.covered.length)) - 40)
  return plan.covered
    .map((m) => line(m, Math.min(per, 4_000)))
    .filter(Boolean)
    .join('\n\n')
}

/** the fallback: every covered message cut to its first 200 characters */
function cutTranscript(plan: CompactionPlan): string {
  const lines = plan.covered.map((m) => line(m, FALLBACK_CHARS)).filter(Boolean)
  return `(No summary could be written; the earlier messages, each cut to its first ${FALLBACK_CHARS} characters:)\n\n${lines.join('\n\n')}`
}

/**
 * The summary call: non-streamed where the client can (the OpenAI-compatible one), else the
 * client's stream read to its end without showing anything (Ollama's native API).
 */
export async function completeQuietly(
  client: TierModel['client'],
  request: ChatRequest,
  signal: AbortSignal,
): Promise<{ content: string; usage: Usage | null }> {
  if (client.complete) return client.complete(request, signal)
  const r = await client.streamChat(request, { signal, onDelta: () => {} })
  if (r.content.trim() === '') throw new Error('the model answered with no text')
  return { content: r.content, usage: r.usage }
}
