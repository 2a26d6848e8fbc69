/** The chat's todo list (kept by the model with `todo_write`), above the composer. */
import type { JSX } from 'react'
import { useLive } from '../../state/context'
import { useSession } from '../../state/queries'

const MARK = { pending: '○', in_progress: '◐', completed: '✓' } as const
const WORDS = { pending: 'to do', in_progress: 'in progress', completed: 'done' } as const

export function TodoList(): JSX.Element | null {
  const sessionId = useLive((s) => s.currentId)
  const todos = useSession(sessionId).data?.todos ?? []
  if (todos.length === 0) return null
  const done = todos.filter((t) => t.status === 'completed').length
  return (
    <details className="todos" open>
      <summary>
        Todo list · {done}/{todos.length} done
      </summary>
      <ul aria-label="Todo list">
        {todos.map((t) => (
          <li key={t.id} className={`todo todo-${t.status}`}>
            <span aria-hidden="true">{MARK[t.status]}</span> {t.content}
            <span className="visually-hidden"> ({WORDS[t.status]})</span>
          </li>
        ))}
      </ul>
    </details>
  )
}
