/**
 * Turns the chunks of one streamed completion, in any dialect, into one internal stream:
 * text and reasoning deltas (to `onDelta`, in order) and the accumulated result (content,
 * reasoning, tool calls, finish reason, usage, provider extras). It also holds the one cap on
 * an answer's size: every streamed part (text, reasoning, `reasoning_details`, tool-call
 * arguments) counts against `maxChars`; what passes it is not kept, and `push` then throws
 * `answer_too_long` with what came, so the client stops reading. This is the per-token hot
 * path: no regexes, no per-chunk allocations beyond the delta handed to the UI.
 */
import type { Usage } from '../../../src-preload/contract/dto'
import { estimateTokens } from './estimate'
import { ReasoningDetailsAccumulator } from './reasoning-details'
import { ThinkTagParser } from './think-parser'
import type { ThinkSink } from './think-parser'
import { ToolCallAccumulator } from './tool-call-accumulator'
import { LlmError, type StreamDelta } from './types'

/** the size of one answer when the caller sets none: about 2 MB, every part together */
export const DEFAULT_MAX_ANSWER_CHARS = 2_000_000

/** The parts of a chat.completion.chunk we read, with the dialects' extra fields. */
interface WireUsage {
  prompt_tokens?: unknown
  completion_tokens?: unknown
  /** OpenAI, OpenRouter: `cached_tokens`; DeepSeek says `prompt_cache_hit_tokens` instead */
  prompt_tokens_details?: { cached_tokens?: unknown } | null
  prompt_cache_hit_tokens?: unknown
  completion_tokens_details?: { reasoning_tokens?: unknown } | null
}
interface WireChunk {
  /** the model the server says answered */
  model?: unknown
  choices?: WireChoice[] | null
  usage?: WireUsage | null
  /** Groq: usage (older streams send it only here) and an error that ends the stream */
  x_groq?: { usage?: WireUsage | null; error?: unknown } | null
}
interface WireChoice {
  delta?: WireDelta | null
  finish_reason?: unknown
  /** Moonshot puts the usage on the choice of the last chunk */
  usage?: WireUsage | null
}
interface WireDelta {
  content?: unknown
  reasoning_content?: unknown
  reasoning?: unknown
  reasoning_details?: unknown
  tool_calls?: unknown
}

export interface PartialOutput {
  content: string
  reasoning: string | null
  /** set when the model reasoned: see `StreamNormalizer.reasoningMs` */
  reasoningMs?: number
  /** set when a delta came: ms after `startedAt` */
  timeToFirstTokenMs?: number
  /** ms after `startedAt` when the partial was taken */
  latencyMs: number
  /** the server's, or estimated from what came (and `inputChars`) */
  usage: Usage
  servedModel?: string
}

export class StreamNormalizer implements ThinkSink {
  content = ''
  private reasoningText = ''
  finishReason: string | null = null
  /** any delta (text, reasoning or tool call) arrived */
  emitted = false
  /** ms after `startedAt` of the first delta */
  firstDeltaAt: number | null = null
  /** performance.now() of the first reasoning delta, and of what ended the reasoning */
  private reasoningFrom: number | null = null
  private reasoningTo: number | null = null
  private usage: {
    prompt: number
    completion: number
    cached?: number
    reasoning?: number
  } | null = null
  private readonly tools = new ToolCallAccumulator()
  private readonly think: ThinkTagParser
  private details: ReasoningDetailsAccumulator | null = null
  /** chunks received (any shape) */
  chunks = 0
  /** an error the provider reported inside a chunk without an `error` event (Groq `x_groq.error`) */
  providerError: string | null = null
  /** the first model name a chunk carried (`chunk.model`): the model that answered */
  servedModel: string | null = null
  /** the size of the request's messages, for a usage estimate when the server sends none */
  inputChars = 0
  /** characters of every part received so far, against `maxChars` */
  private received = 0
  private capReached = false

  constructor(
    private readonly onDelta: (d: StreamDelta) => void,
    private readonly startedAt: number,
    private readonly maxChars: number = DEFAULT_MAX_ANSWER_CHARS,
  ) {
    this.think = new ThinkTagParser(this)
  }

  push(raw: unknown): void {
    const chunk = raw as WireChunk
    this.chunks++
    if (this.servedModel === null && typeof chunk.model === 'string' && chunk.model !== '') {
      this.servedModel = chunk.model
    }
    // the standard field wins; Groq's own and Moonshot's per-choice usage fill in for it
    this.readUsage(chunk.usage, true)
    const groq = chunk.x_groq
    if (groq) {
      this.readUsage(groq.usage, false)
      if (typeof groq.error === 'string' && groq.error !== '') this.providerError = groq.error
    }
    const choices = chunk.choices
    if (!choices || choices.length === 0) return
    const choice = choices[0]
    if (!choice) return
    this.readUsage(choice.usage, false)
    const delta = choice.delta
    if (delta) {
      const rc = delta.reasoning_content
      let reasoned = false
      if (typeof rc === 'string' && rc !== '') {
        this.reasoning(rc)
        reasoned = true
      } else {
        const r = delta.reasoning
        if (typeof r === 'string' && r !== '') {
          this.reasoning(r)
          reasoned = true
        }
      }
      const content = delta.content
      if (typeof content === 'string') {
        if (content !== '') this.think.push(content)
      } else if (Array.isArray(content)) {
        this.contentParts(content)
      }
      const calls = delta.tool_calls
      if (Array.isArray(calls) && calls.length > 0 && !this.capReached) {
        const before = this.tools.argumentChars()
        this.tools.add(calls)
        this.count(this.tools.argumentChars() - before)
        this.mark()
        this.answerBegan()
      }
      const details = delta.reasoning_details
      if (Array.isArray(details) && details.length > 0 && !this.capReached) {
        // kept whole and sent back later: every field counts, text repeated in `reasoning` too
        this.count(JSON.stringify(details).length)
        if (!this.capReached) (this.details ??= new ReasoningDetailsAccumulator()).add(details)
        // OpenRouter repeats the text in `reasoning` when it can; when not, the details are all
        if (!reasoned) this.detailsText(details)
      }
    }
    const fr = choice.finish_reason
    if (typeof fr === 'string' && fr !== '') this.finishReason = fr
    if (this.capReached) throw this.tooLong()
  }

  /** The stream is over (for whatever reason): release what the think parser holds back. */
  end(): void {
    this.think.flush()
    this.answerBegan()
  }

  text(whole: string): void {
    const s = this.admit(whole)
    if (s === '') return
    this.content += s
    this.mark()
    this.answerBegan()
    this.onDelta({ type: 'text', text: s })
  }

  reasoning(whole: string): void {
    const s = this.admit(whole)
    if (s === '') return
    this.reasoningText += s
    this.mark()
    this.reasoningFrom ??= performance.now()
    this.onDelta({ type: 'reasoning', text: s })
  }

  /** the part of `s` within the cap ('' once it is reached) */
  private admit(s: string): string {
    if (this.capReached) return ''
    const room = this.maxChars - this.received
    this.count(s.length)
    return s.length <= room ? s : s.slice(0, Math.max(0, room))
  }

  private count(chars: number): void {
    this.received += chars
    if (this.received > this.maxChars) this.capReached = true
  }

  private tooLong(): LlmError {
    const max = this.maxChars
    const size = max >= 1_000_000 ? `${max / 1_000_000} million` : String(max)
    return new LlmError(
      'answer_too_long',
      `The answer passed ${size} characters (its text, reasoning and tool call arguments together), the limit of one answer, and was cut there; what came is kept. ` +
        'Ask for a shorter answer, or raise "maxAnswerChars" in the limits of the settings.',
      { partial: this.partial() },
    )
  }

  /**
   * ms from the first reasoning delta to the first answer text or tool call (or the end of
   * the stream); null when the model did not reason.
   */
  reasoningMs(): number | null {
    if (this.reasoningFrom === null) return null
    return Math.round((this.reasoningTo ?? performance.now()) - this.reasoningFrom)
  }

  /** the tool-call argument characters received so far */
  toolArgumentChars(): number {
    return this.tools.argumentChars()
  }

  partial(): PartialOutput {
    const reasoningMs = this.reasoningMs()
    const reasoning = this.finalReasoning()
    return {
      content: this.content,
      reasoning,
      ...(reasoningMs !== null ? { reasoningMs } : {}),
      ...(this.firstDeltaAt !== null ? { timeToFirstTokenMs: Math.round(this.firstDeltaAt) } : {}),
      latencyMs: Math.round(performance.now() - this.startedAt),
      usage: this.usageSoFar(reasoning),
      ...(this.servedModel !== null ? { servedModel: this.servedModel } : {}),
    }
  }

  /** The result fields that come from the stream. */
  output(inputChars: number): {
    content: string
    reasoning: string | null
    toolCalls: ReturnType<ToolCallAccumulator['finish']>
    usage: Usage
    providerExtras: Record<string, unknown> | null
    reasoningMs: number | null
  } {
    const reasoning = this.finalReasoning()
    this.inputChars = inputChars
    const usage = this.usageSoFar(reasoning)
    const details = this.details?.finish()
    return {
      content: this.content,
      reasoning,
      toolCalls: this.tools.finish(),
      usage,
      providerExtras: details && details.length > 0 ? { reasoning_details: details } : null,
      reasoningMs: this.reasoningMs(),
    }
  }

  private usageSoFar(reasoning: string | null): Usage {
    const u = this.usage
    return u
      ? {
          inputTokens: u.prompt,
          outputTokens: u.completion,
          estimated: false,
          ...(u.cached !== undefined ? { cachedInputTokens: u.cached } : {}),
          ...(u.reasoning !== undefined ? { reasoningTokens: u.reasoning } : {}),
        }
      : {
          inputTokens: estimateTokens(this.inputChars),
          outputTokens: estimateTokens(
            this.content.length + (reasoning?.length ?? 0) + this.tools.argumentChars(),
          ),
          estimated: true,
        }
  }

  private finalReasoning(): string | null {
    if (this.reasoningText === '') return null
    // a think block usually ends with a newline before `</think>`
    const r = this.think.sawThink ? this.reasoningText.trimEnd() : this.reasoningText
    return r === '' ? null : r
  }

  private contentParts(parts: unknown[]): void {
    for (const p of parts) {
      if (p === null || typeof p !== 'object') continue
      const { type, text, thinking } = p as { type?: unknown; text?: unknown; thinking?: unknown }
      if (type === 'thinking' || type === 'reasoning') {
        if (typeof text === 'string' && text !== '') this.reasoning(text)
        // Mistral / Magistral: `{type:'thinking', thinking:[{type:'text', text}]}`
        else if (typeof thinking === 'string' && thinking !== '') this.reasoning(thinking)
        else if (Array.isArray(thinking)) {
          for (const t of thinking as unknown[]) {
            const tt = t !== null && typeof t === 'object' ? (t as { text?: unknown }).text : t
            if (typeof tt === 'string' && tt !== '') this.reasoning(tt)
          }
        }
        continue
      }
      if (typeof text === 'string' && text !== '') this.think.push(text)
    }
  }

  /** The readable parts of OpenRouter `reasoning_details` (text and summaries; not encrypted blocks). */
  private detailsText(details: unknown[]): void {
    for (const d of details) {
      if (d === null || typeof d !== 'object') continue
      const { type, text, summary } = d as { type?: unknown; text?: unknown; summary?: unknown }
      if (type === 'reasoning.text' && typeof text === 'string' && text !== '') this.reasoning(text)
      else if (type === 'reasoning.summary' && typeof summary === 'string' && summary !== '') {
        this.reasoning(summary)
      }
    }
  }

  /** Reads a usage object; `replace` says whether it overrides one read before. */
  private readUsage(usage: WireUsage | null | undefined, replace: boolean): boolean {
    if (!usage) return false
    const p = usage.prompt_tokens
    const c = usage.completion_tokens
    if (typeof p !== 'number' && typeof c !== 'number') return false
    if (replace || this.usage === null) {
      const cached = count(
        usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens,
      )
      const reasoning = count(usage.completion_tokens_details?.reasoning_tokens)
      this.usage = {
        prompt: typeof p === 'number' ? p : 0,
        completion: typeof c === 'number' ? c : 0,
        ...(cached !== null ? { cached } : {}),
        ...(reasoning !== null ? { reasoning } : {}),
      }
    }
    return true
  }

  /** the reasoning (if it began) is over once the answer or a tool call begins */
  private answerBegan(): void {
    if (this.reasoningFrom !== null && this.reasoningTo === null) {
      this.reasoningTo = performance.now()
    }
  }

  private mark(): void {
    if (!this.emitted) {
      this.emitted = true
      this.firstDeltaAt = performance.now() - this.startedAt
    }
  }
}

/** a token count a server sent, or null when it is not one */
function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null
}
