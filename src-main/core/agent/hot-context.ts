/**
 * The system prompt, assembled before every model call: the user's own prompt first, then
 * what stays the same for a while (the environment), then what changes as the session goes
 * on (its todo list, the files its tools read or wrote). The stable part first, so that a
 * provider's prompt cache keeps the prefix from one round to the next; the date is a day,
 * not a time, for the same reason. Short: the file list is capped and holds paths only.
 */
import type { StoredMessage, TodoItem } from '../../../src-preload/contract/dto'

export interface HotContextInput {
  /** the user's system prompt (settings, or the session's own) */
  userPrompt: string | null
  /** absent: only the user's prompt is sent, as before */
  environment?: { os: string; workspace: string | null }
  /** ms since the epoch */
  now: number
  todos: readonly TodoItem[]
  history: readonly StoredMessage[]
}

/** at most this many file paths are listed */
export const MAX_FILES = 20
/** a path longer than this is shortened from the start (its end names the file) */
const MAX_PATH_CHARS = 200

/** the built-in file tools and the argument that names their file (plain names: built-ins only) */
const FILE_TOOLS: Readonly<Record<string, 'read' | 'written'>> = {
  read_file: 'read',
  list_directory: 'read',
  write_file: 'written',
  edit_file: 'written',
}

/** Files the session's tool calls read or wrote (and did not fail), most recent first, each once. */
export function filesTouched(
  history: readonly StoredMessage[],
  max = MAX_FILES,
): { path: string; how: 'read' | 'written' }[] {
  const out: { path: string; how: 'read' | 'written' }[] = []
  const seen = new Set<string>()
  // a call that failed (denied, refused, an error) touched nothing
  const failed = new Set<string>()
  for (const m of history)
    if (m.role === 'tool' && m.toolCallId && (m.isError || m.failureKind)) failed.add(m.toolCallId)
  for (let i = history.length - 1; i >= 0 && out.length < max; i--) {
    const calls = history[i]!.toolCalls ?? []
    for (let k = calls.length - 1; k >= 0 && out.length < max; k--) {
      const c = calls[k]!
      const how = FILE_TOOLS[c.name]
      if (!how || failed.has(c.id)) continue
      const path = pathArgument(c.arguments)
      if (!path || seen.has(path)) continue
      seen.add(path)
      out.push({ path: shorten(path), how })
    }
  }
  return out
}

function pathArgument(args: string): string | null {
  try {
    const v = (JSON.parse(args) as { path?: unknown } | null)?.path
    return typeof v === 'string' && v.trim() ? v.trim() : null
  } catch {
    return null
  }
}

/** one line, no control characters: a path is the model's own text, shown back to it */
function shorten(p: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = p.replace(/[\u0000-\u001f\u007f]/g, ' ')
  return flat.length > MAX_PATH_CHARS ? `…${flat.slice(-(MAX_PATH_CHARS - 1))}` : flat
}

const TODO_MARK: Record<TodoItem['status'], string> = {
  pending: '[ ]',
  in_progress: '[~]',
  completed: '[x]',
}

export function hotSystemPrompt(input: HotContextInput): string | null {
  const user = input.userPrompt?.trim() ? input.userPrompt : null
  if (!input.environment) return user
  const sections: string[] = []
  if (user) sections.push(user)
  const day = new Date(input.now).toISOString().slice(0, 10)
  const env = [`Today's date: ${day}`, `Operating system: ${input.environment.os}`]
  if (input.environment.workspace)
    env.push(`Workspace folder (where the file tools work): ${input.environment.workspace}`)
  sections.push(`# Environment\n${env.join('\n')}`)
  if (input.todos.length > 0)
    sections.push(
      `# Todo list\n${input.todos.map((t) => `${TODO_MARK[t.status]} ${t.content}`).join('\n')}`,
    )
  const files = filesTouched(input.history)
  if (files.length > 0)
    sections.push(
      `# Files used in this conversation (most recent first)\n${files.map((f) => `- ${f.path} (${f.how})`).join('\n')}`,
    )
  return sections.join('\n\n')
}
