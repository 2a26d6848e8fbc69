/**
 * todo_write: replaces the session's todo list (the plan the model keeps for a task) and
 * returns it rendered as text. Items without an id get one. Several items may be
 * `in_progress` at once: refusing that would only cost a retry, and the description asks
 * the model to keep one at a time.
 */
import type { TodoItem } from '../../../src-preload/contract/dto'
import { text, ToolError, type BuiltinTool } from './tool-def'

export const MAX_TODOS = 100
const STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed'])
const MARK: Record<TodoItem['status'], string> = {
  completed: '[x]',
  in_progress: '[~]',
  pending: '[ ]',
}

export const todoWriteTool: BuiltinTool = {
  name: 'todo_write',
  description:
    'Write the plan for the current task as a todo list, shown to the user. Each call ' +
    'replaces the whole list, so always send every item. Use it for work with several ' +
    'steps: mark the step you work on in_progress (one at a time) and mark steps completed ' +
    'as soon as they are done. Keep the ids of existing items.',
  inputSchema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        maxItems: MAX_TODOS,
        items: {
          type: 'object',
          properties: {
            id: {
              type: 'string',
              description: 'Keep the id of an existing item; new items may omit it',
            },
            content: { type: 'string', minLength: 1, description: 'What to do' },
            status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          },
          required: ['content', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Update todo list',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run(args, env) {
    const todos = parseTodos(args['todos'])
    env.store.setTodos(env.ctx.sessionId, todos)
    return { ...text(renderTodos(todos)), structuredContent: { todos } }
  },
}

/** Checks the items and gives every item a unique id (keeping the ones given). */
export function parseTodos(raw: unknown): TodoItem[] {
  if (!Array.isArray(raw)) throw new ToolError('todos must be an array of {content, status} items.')
  if (raw.length > MAX_TODOS)
    throw new ToolError(`At most ${MAX_TODOS} todo items; merge some steps.`)
  const items = raw.map((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) {
      throw new ToolError(`Item ${i + 1} of todos must be an object with content and status.`)
    }
    const { id, content, status } = item as Record<string, unknown>
    if (typeof content !== 'string' || content.trim() === '') {
      throw new ToolError(`Item ${i + 1} of todos needs a non-empty content.`)
    }
    if (typeof status !== 'string' || !STATUSES.has(status)) {
      throw new ToolError(
        `Item ${i + 1} of todos has the status ${JSON.stringify(status)}; use pending, in_progress or completed.`,
      )
    }
    return {
      id: typeof id === 'string' && id.trim() !== '' ? id.trim() : null,
      content: content.trim(),
      status: status as TodoItem['status'],
    }
  })
  const taken = new Set<string>()
  const out: TodoItem[] = []
  // first keep the given ids (the first use of a repeated id keeps it) ...
  const keep = items.map((it) => {
    if (it.id === null || taken.has(it.id)) return false
    taken.add(it.id)
    return true
  })
  // ... then number the rest
  let next = 1
  items.forEach((it, i) => {
    let id = keep[i] ? it.id : null
    if (id === null) {
      while (taken.has(String(next))) next++
      id = String(next)
      taken.add(id)
    }
    out.push({ id, content: it.content, status: it.status })
  })
  return out
}

export function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'The todo list is now empty.'
  const done = todos.filter((t) => t.status === 'completed').length
  const lines = todos.map((t) => `${MARK[t.status]} ${t.content}`)
  return `Todo list (${done} of ${todos.length} completed):\n${lines.join('\n')}`
}
