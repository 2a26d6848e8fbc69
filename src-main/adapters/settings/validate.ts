/**
 * Validation of settings values with the zod schema, and readable messages made from
 * zod's issues: `limits.maxIterations must be >= 1`, `providers[0].baseURL is required`.
 */
import type { z } from 'zod'
import { settingsSchema } from './schema'

type Issue = z.core.$ZodIssue

const TYPE_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  null: 'null',
}

/** `['providers', 0, 'baseURL']` after `prefix` → `providers[0].baseURL` */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out
}

function sizeWords(origin: string): string {
  if (origin === 'string') return ' characters'
  if (origin === 'array' || origin === 'set') return ' items'
  return ''
}

/** What is wrong with the value at an issue's path, without the path. */
export function describeIssue(issue: Issue): string {
  const missing = !('input' in issue) || issue.input === undefined
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return 'is required'
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`
    case 'too_small': {
      const unit = sizeWords(issue.origin)
      if (unit) return `must have at least ${String(issue.minimum)}${unit}`
      return `must be ${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`
    }
    case 'too_big': {
      const unit = sizeWords(issue.origin)
      if (unit) return `must have at most ${String(issue.maximum)}${unit}`
      return `must be ${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}`
    }
    case 'invalid_value':
      if (missing) return 'is required'
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'invalid_format':
      if (issue.format === 'regex')
        return issue.message.startsWith('Invalid string')
          ? `must match the pattern ${issue.pattern ?? ''}`.trimEnd()
          : `must be ${issue.message}`
      return issue.format === 'url' ? 'must be a URL' : `must be a valid ${issue.format}`
    case 'unrecognized_keys':
      return `has unknown field(s) ${issue.keys.join(', ')}`
    default:
      return issue.message.replace(/^Invalid input: /, 'is invalid: ')
  }
}

/** One line per problem (duplicates dropped), joined with `; `. */
export function describeIssues(prefix: string, issues: readonly Issue[]): string {
  const lines = new Set<string>()
  for (const issue of issues) {
    const at = formatPath(prefix, issue.path) || '(root)'
    lines.add(`${at} ${describeIssue(issue)}`)
  }
  return [...lines].join('; ')
}

/** Returns null when `value` is valid, else a readable description of the problems. */
export function checkValue(schema: z.ZodType, value: unknown, path = ''): string | null {
  const result = schema.safeParse(value, { reportInput: true })
  return result.success ? null : describeIssues(path, result.error.issues)
}

/** The whole settings object (every known key present and valid; unknown keys allowed). */
export function checkSettings(value: unknown): string | null {
  return checkValue(settingsSchema, value)
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A short rendering of a value for a warning. */
export function preview(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
