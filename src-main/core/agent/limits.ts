/** The knobs of one turn. Hosts fill them from settings and flags. */
export interface TurnLimits {
  /** LLM calls per turn */
  maxIterations: number
  /** tool executions per turn */
  maxToolExecutions: number
  /** wall-clock budget of the whole turn */
  deadlineMs: number
  /** tool output above this is cut, with a marker the model can read */
  maxToolOutputChars: number
  /** the same call (tool + canonical arguments) this many times in a row is a loop */
  loopThreshold: number
  /** warnings given before a loop stops the turn */
  loopMaxWarnings: number
  stopOnToolFailure: boolean
  stopOnDenied: boolean
  /** LLM retries after the first attempt */
  maxRetries: number
  /** the stream watchdog */
  idleTimeoutMs: number
  /** backoff base (ms) */
  retryBaseDelayMs: number
  /** estimated tokens a request may use; older tool output is shortened, then old turns left out (0: off) */
  contextTokens: number
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
  contextTokens: 100_000,
}
