/** Asks a server prompt's arguments before its messages are sent. */
import { useState, type JSX, type KeyboardEvent } from 'react'
import type { McpPrompt } from '../../../../src-preload/contract/mcp-catalog'
import { promptCommand } from './prompt-commands'

export function PromptForm(props: {
  prompt: McpPrompt
  onUse: (args: Record<string, string>) => void
  onCancel: () => void
}): JSX.Element {
  const p = props.prompt
  const [values, setValues] = useState<Record<string, string>>({})
  const complete = p.arguments.every((a) => !a.required || (values[a.name] ?? '').trim() !== '')
  const use = (): void => {
    if (!complete) return
    const args: Record<string, string> = {}
    for (const a of p.arguments) if ((values[a.name] ?? '') !== '') args[a.name] = values[a.name]!
    props.onUse(args)
  }
  const onKey = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key === 'Enter') {
      e.preventDefault()
      use()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      props.onCancel()
    }
  }
  return (
    <div
      className="template-form prompt-form"
      role="group"
      aria-label={`Prompt /${promptCommand(p)}`}
      onKeyDown={onKey}
    >
      <p>
        <strong>{p.title ?? p.name}</strong> <span className="meta">from {p.server}</span>
      </p>
      {p.description ? <p className="meta">{p.description}</p> : null}
      {p.arguments.map((a, i) => (
        <label key={a.name}>
          {a.name}
          {a.required ? ' (required)' : ''}
          <input
            value={values[a.name] ?? ''}
            autoFocus={i === 0}
            aria-description={a.description}
            onChange={(e) => setValues({ ...values, [a.name]: e.target.value })}
          />
        </label>
      ))}
      <div className="template-form-buttons">
        <button type="button" className="primary" onClick={use} disabled={!complete}>
          Send prompt
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}
