/**
 * The turn limits the settings screen edits, with the bounds the contract enforces
 * (`limitsPatch` in the routes). Durations are shown in seconds and stored in ms.
 */
import type { LimitsView } from '../../../../src-preload/contract/app-dto'

export type NumberLimit = Exclude<
  keyof LimitsView,
  'stopOnToolFailure' | 'stopOnDenied' | 'neverCompressTools'
>

export interface LimitField {
  key: NumberLimit
  label: string
  hint: string
  /** the stored value is this many times the shown one (ms shown as seconds: 1000) */
  scale: number
  min: number
  max?: number
}

export const LIMIT_FIELDS: readonly LimitField[] = [
  { key: 'maxIterations', label: 'Model calls per turn', hint: 'At least 1.', scale: 1, min: 1 },
  {
    key: 'maxToolExecutions',
    label: 'Tool calls per turn',
    hint: 'At least 0 (0: no tool runs).',
    scale: 1,
    min: 0,
  },
  {
    key: 'deadlineMs',
    label: 'Time limit per turn (seconds)',
    hint: 'At least 1 second.',
    scale: 1000,
    min: 1,
  },
  {
    key: 'maxToolOutputChars',
    label: 'Tool output limit (characters)',
    hint: 'Longer output is cut, with a note the model can read. At least 100.',
    scale: 1,
    min: 100,
  },
  {
    key: 'maxAnswerChars',
    label: 'Longest answer (characters)',
    hint: 'A longer answer is stopped there and kept. At least 1000.',
    scale: 1,
    min: 1_000,
  },
  {
    key: 'maxToolsPerServer',
    label: 'Tools offered per MCP server',
    hint: 'A server that lists more gets a warning; the rest are not offered. From 1 to 10000.',
    scale: 1,
    min: 1,
    max: 10_000,
  },
  {
    key: 'maxToolsOffered',
    label: 'Tools in one request',
    hint: 'With more tools connected, the model searches them with find_tools. From 2 to 1000 (at most 128 are sent).',
    scale: 1,
    min: 2,
    max: 1000,
  },
  {
    key: 'maxRetries',
    label: 'Retries of a failed model call',
    hint: 'From 0 to 20.',
    scale: 1,
    min: 0,
    max: 20,
  },
  {
    key: 'idleTimeoutMs',
    label: 'Silence before a stream is given up (seconds)',
    hint: 'At least 1 second.',
    scale: 1000,
    min: 1,
  },
  {
    key: 'loopThreshold',
    label: 'Same call in a row counted as a loop',
    hint: 'At least 2.',
    scale: 1,
    min: 2,
  },
  {
    key: 'loopMaxWarnings',
    label: 'Loop warnings before the turn stops',
    hint: 'At least 0.',
    scale: 1,
    min: 0,
  },
  {
    key: 'contextTokens',
    label: 'Context budget (tokens)',
    hint: "When the server does not say the model's window: older tool output is shortened, then old turns left out, above it. 0: off.",
    scale: 1,
    min: 0,
  },
  {
    key: 'compactAtPercent',
    label: 'Summarize the conversation at (% of the window)',
    hint: 'From 10 to 95.',
    scale: 1,
    min: 10,
    max: 95,
  },
  {
    key: 'keepToolResultsTurns',
    label: 'Turns whose tool results are sent whole',
    hint: 'Older results are cut to 200 characters. From 1 to 1000.',
    scale: 1,
    min: 1,
    max: 1000,
  },
]

/** The text a field shows for a stored value. */
export const shown = (f: LimitField, stored: number): string => String(stored / f.scale)

/** The stored value of what was typed, or what is wrong with it. */
export function parseLimit(
  f: LimitField,
  text: string,
): { value: number; error: null } | { value: null; error: string } {
  const t = text.trim()
  if (!t) return { value: null, error: 'Enter a number.' }
  const n = Number(t)
  if (!Number.isFinite(n)) return { value: null, error: 'Enter a number.' }
  const value = Math.round(n * f.scale)
  if (f.scale === 1 && !Number.isInteger(n)) return { value: null, error: 'Enter a whole number.' }
  if (f.scale !== 1 && Math.abs(value - n * f.scale) > 1e-6)
    return { value: null, error: 'At most three decimals.' }
  if (n < f.min) return { value: null, error: `At least ${f.min}.` }
  if (f.max !== undefined && n > f.max) return { value: null, error: `At most ${f.max}.` }
  if (!Number.isSafeInteger(value)) return { value: null, error: 'This number is too large.' }
  return { value, error: null }
}
