/**
 * Stored rows are read as untrusted: a row whose JSON columns do not parse (or do not have
 * the shape they must) is shown as unreadable instead of failing the whole session. Such a
 * message becomes a notice (shown, never sent to the model) that says so; the results of
 * tool calls it made, whose request can no longer be read, are left out the same way. The
 * rest of the session opens and continues.
 */
import type {
  SessionRecord,
  StoredMessage,
  ToolCallRecord,
} from '../../../src-preload/contract/dto'
import { toMessage, toSession, type MessageRow, type SessionRow } from './rows'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The shape each JSON column must have (the lint rule keeps zod out of the adapters). */
const COLUMNS = {
  parts: (v: unknown) =>
    Array.isArray(v) && v.every((p) => isObject(p) && typeof p['type'] === 'string'),
  provider_extras: isObject,
  tool_calls: (v: unknown): v is ToolCallRecord[] =>
    Array.isArray(v) &&
    v.every(
      (c) =>
        isObject(c) &&
        typeof c['id'] === 'string' &&
        typeof c['name'] === 'string' &&
        typeof c['arguments'] === 'string',
    ),
} as const

const ROLES = new Set(['system', 'user', 'assistant', 'tool'])
const KINDS = new Set(['message', 'summary', 'notice'])

/** The tool calls stored in `text`, or null when there are none or they cannot be read. */
export function readToolCalls(text: string | null): ToolCallRecord[] | null {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(text)
    return COLUMNS.tool_calls(value) ? value : null
  } catch {
    return null
  }
}

/** The first column of `row` that cannot be read, or null. */
function damagedColumn(row: MessageRow): string | null {
  for (const [column, valid] of Object.entries(COLUMNS)) {
    const text = row[column as keyof typeof COLUMNS]
    if (text === null) continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return column
    }
    if (value !== null && !valid(value)) return column
  }
  if (!ROLES.has(row.role)) return 'role'
  if (!KINDS.has(row.kind)) return 'kind'
  return null
}

function unreadable(row: MessageRow, what: string): StoredMessage {
  const blank = { ...row, parts: null, provider_extras: null, tool_calls: null }
  return {
    ...toMessage(blank),
    kind: 'notice',
    role: ROLES.has(row.role) ? (row.role as StoredMessage['role']) : 'assistant',
    content: `[This message could not be read: ${what}. It is left out of what the model sees.]`,
    status: 'interrupted',
  }
}

/**
 * The messages of `rows` (one session, in order), damaged rows shown as unreadable. A tool
 * result is unreadable too when the call it answers could not be read: the results that
 * follow an assistant message whose tool calls are damaged, up to the next message that is
 * not a tool result. `leadIn`, when `rows` is a page that starts with tool results, is the
 * run of rows just before it (from the last message that is not a tool result): read for
 * that state only, so that a page says what the whole session says.
 */
export function readMessages(
  rows: readonly MessageRow[],
  leadIn: readonly MessageRow[] = [],
): StoredMessage[] {
  const out: StoredMessage[] = []
  let afterUnreadableCall = false
  const lead = leadIn.length
  for (const [i, row] of [...leadIn, ...rows].entries()) {
    const emit = (m: StoredMessage): void => void (i >= lead && out.push(m))
    const column = damagedColumn(row)
    if (column !== null) {
      emit(unreadable(row, `its stored ${column.replace('_', ' ')} is damaged`))
      // a damaged result of an unreadable call does not end that call's results
      if (row.role !== 'tool')
        afterUnreadableCall = row.role === 'assistant' && column === 'tool_calls'
      continue
    }
    if (row.role === 'tool' && afterUnreadableCall) {
      emit(unreadable(row, 'it answers a tool call whose request could not be read'))
      continue
    }
    afterUnreadableCall = false
    emit(toMessage(row))
  }
  return out
}

/** One message, damaged columns shown as unreadable. */
export function readMessage(row: MessageRow): StoredMessage {
  return readMessages([row])[0]!
}

/** A session; a damaged to-do list reads as empty. */
export function readSession(row: SessionRow): SessionRecord {
  try {
    const todos: unknown = JSON.parse(row.todos)
    if (Array.isArray(todos)) return toSession(row)
  } catch {
    // damaged: read as empty below
  }
  return toSession({ ...row, todos: '[]' })
}
