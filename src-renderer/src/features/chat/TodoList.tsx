/** The chat's todo list (kept by the model with `todo_write`), above the composer. */
import type { JSX } from 'react'
import { useLive } from '../../state/context'
import { useSession } from '../../state/queries'
import { useT } from '../../i18n'

const MARK = { pending: '○', in_progress: '◐', completed: '✓' } as const
const WORDS = { pending: 'pending', in_progress: 'inProgress', completed: 'completed' } as const

export function TodoList(): JSX.Element | null {
  const sessionId = useLive((s) => s.currentId)
  const todos = useSession(sessionId).data?.todos ?? []
  const t = useT()
  if (todos.length === 0) return null
  const done = todos.filter((t) => t.status === 'completed').length
  return (
    <details className="todos" open>
      <summary>{t('chat.todos.summary', { done, total: todos.length })}</summary>
      <ul aria-label={t('chat.todos.list')}>
        {todos.map((todo) => (
          <li key={todo.id} className={`todo todo-${todo.status}`}>
            <span aria-hidden="true">{MARK[todo.status]}</span> {todo.content}
            <span className="visually-hidden">
              {' '}
              ({t(`chat.todos.${WORDS[todo.status]}`)})
            </span>
          </li>
        ))}
      </ul>
    </details>
  )
}
