export { LlmClient, DEFAULT_IDLE_TIMEOUT_MS, resetStreamOptionsMemory } from './client'
export type { StreamOptions } from './client'
export { streamWithRetry, DEFAULT_RETRY_POLICY, backoffDelay } from './retry'
export type { RetryOptions } from './retry'
export { toLlmError, parseRetryAfter } from './errors'
export { AbortReason, LlmError, abortKindOf } from './types'
export type {
  AbortKind,
  ChatRequest,
  CompletionResult,
  LlmEndpoint,
  LlmErrorCode,
  LlmPartial,
  RetryInfo,
  RetryPolicy,
  StreamDelta,
  WireMessage,
  WireTool,
} from './types'
