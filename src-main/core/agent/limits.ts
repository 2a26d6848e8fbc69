import type { LimitsView } from '../../../src-preload/contract/app-dto'
import { DEFAULT_MAX_ANSWER_CHARS } from '../llm/stream-normalizer'

/** The knobs of one turn: the settings' limits (`limitsSchema`), plus the backoff base. */
export interface TurnLimits extends LimitsView {
  /** backoff base (ms) */
  retryBaseDelayMs: number
}

export const DEFAULT_LIMITS: TurnLimits = {
  maxIterations: 50,
  maxToolExecutions: 200,
  deadlineMs: 30 * 60_000,
  maxToolOutputChars: 50_000,
  loopThreshold: 3,
  loopMaxWarnings: 2,
  stopOnToolFailure: false,
  stopOnDenied: false,
  maxRetries: 3,
  idleTimeoutMs: 90_000,
  retryBaseDelayMs: 500,
  contextTokens: 32_768,
  /** about 2 MB, every part together: an endless stream ends here instead of filling memory and disk */
  maxAnswerChars: DEFAULT_MAX_ANSWER_CHARS,
  maxToolsPerServer: 100,
  keepToolResultsTurns: 10,
  neverCompressTools: [],
  compactAtPercent: 70,
  maxToolsOffered: 40,
}
