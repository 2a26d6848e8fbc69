import { AbortReason, LlmError } from '../llm/types'
import { DEFAULT_LIMITS } from './limits'

/**
 * The size limit of one answer (`maxAnswerChars`, text and reasoning together): what streams
 * past it is not shown, the stream is aborted, and the call fails with `answer_too_long`
 * carrying what came up to the limit.
 */
export class AnswerCap {
  private received = 0
  private readonly controller = new AbortController()
  readonly signal = this.controller.signal

  private readonly max: number

  constructor(max: number | undefined) {
    this.max = Number.isInteger(max) && max! > 0 ? max! : DEFAULT_LIMITS.maxAnswerChars
  }

  get reached(): boolean {
    return this.controller.signal.aborted
  }

  /** the part of `text` within the limit ('' once it is reached) */
  admit(text: string): string {
    if (this.reached) return ''
    const room = this.max - this.received
    this.received += text.length
    if (text.length <= room) return text
    this.controller.abort(new AbortReason('stop'))
    return text.slice(0, Math.max(0, room))
  }

  error(cause: unknown): LlmError {
    const partial = cause instanceof LlmError ? cause.partial : undefined
    const reasoning = partial?.reasoning ? partial.reasoning.slice(0, this.max) : null
    const content = (partial?.content ?? '').slice(
      0,
      Math.max(0, this.max - (reasoning?.length ?? 0)),
    )
    const size = this.max >= 1_000_000 ? `${this.max / 1_000_000} million` : String(this.max)
    return new LlmError(
      'answer_too_long',
      `The answer passed ${size} characters, the limit of one answer, and was cut there; what came is kept. ` +
        'Ask for a shorter answer, or raise "maxAnswerChars" in the limits of the settings.',
      { partial: { ...partial, content, reasoning }, cause },
    )
  }
}
