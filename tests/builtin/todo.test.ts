/** todo_write: the session's todo list, persisted through the store. */
import { afterEach, describe, expect, it } from 'vitest'
import type { TodoItem } from '../../src-preload/contract/dto'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { parseTodos, renderTodos } from '../../src-main/adapters/builtin-tools/todo'
import { harness, tempDir } from './harness'

const stores: SqliteSessionStore[] = []
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
})

describe('todo_write', () => {
  it('replaces the list through setTodos and renders it', async () => {
    const calls: { sessionId: string; todos: TodoItem[] }[] = []
    const h = harness({
      store: { setTodos: (sessionId, todos) => void calls.push({ sessionId, todos }) },
    })
    const r = await h.call('todo_write', {
      todos: [
        { id: 'a', content: 'Read the notes', status: 'completed' },
        { content: 'Write the summary', status: 'in_progress' },
        { content: 'Send it', status: 'pending' },
      ],
    })
    expect(r.isError).toBe(false)
    expect(r.text).toBe(
      'Todo list (1 of 3 completed):\n[x] Read the notes\n[~] Write the summary\n[ ] Send it',
    )
    expect(calls).toEqual([
      {
        sessionId: 'session-1',
        todos: [
          { id: 'a', content: 'Read the notes', status: 'completed' },
          { id: '1', content: 'Write the summary', status: 'in_progress' },
          { id: '2', content: 'Send it', status: 'pending' },
        ],
      },
    ])
    expect(r.outcome.structuredContent).toEqual({ todos: calls[0]?.todos })
  })

  it('persists in the real session store', async () => {
    const store = createSessionStore(tempDir())
    stores.push(store)
    const session = store.createSession({ title: 'plan' })
    const h = harness({ store })
    const outcome = await h.tools.call(
      'todo_write',
      {
        todos: [
          { content: 'one', status: 'pending' },
          { id: 'x', content: 'two', status: 'completed' },
        ],
      },
      { signal: new AbortController().signal, sessionId: session.id, toolCallId: 'c1' },
    )
    expect(outcome.isError).toBeUndefined()
    expect(store.getSession(session.id)?.todos).toEqual([
      { id: '1', content: 'one', status: 'pending' },
      { id: 'x', content: 'two', status: 'completed' },
    ])
    await h.tools.call(
      'todo_write',
      { todos: [] },
      {
        signal: new AbortController().signal,
        sessionId: session.id,
        toolCallId: 'c2',
      },
    )
    expect(store.getSession(session.id)?.todos).toEqual([])
  })

  it('allows several items in progress', async () => {
    const h = harness()
    const r = await h.call('todo_write', {
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('[~] a\n[~] b')
  })

  it('gives new ids that do not clash with given or repeated ones', () => {
    const todos = parseTodos([
      { id: '1', content: 'keeps 1', status: 'pending' },
      { content: 'new', status: 'pending' },
      { id: '1', content: 'repeats 1', status: 'pending' },
      { id: '  ', content: 'blank id', status: 'pending' },
    ])
    expect(todos.map((t) => t.id)).toEqual(['1', '2', '3', '4'])
    expect(new Set(todos.map((t) => t.id)).size).toBe(4)
  })

  it('refuses bad items with a message naming the item', async () => {
    const h = harness()
    const bad = await h.call('todo_write', {
      todos: [
        { content: 'ok', status: 'pending' },
        { content: 'x', status: 'done' },
      ],
    })
    expect(bad.isError).toBe(true)
    expect(bad.text).toContain('Item 2 of todos has the status "done"')
    const empty = await h.call('todo_write', { todos: [{ content: '  ', status: 'pending' }] })
    expect(empty.isError).toBe(true)
    expect(empty.text).toContain('non-empty content')
    const notArray = await h.call('todo_write', { todos: 'buy milk' })
    expect(notArray.isError).toBe(true)
  })

  it('renders an empty list', () => {
    expect(renderTodos([])).toBe('The todo list is now empty.')
  })
})
