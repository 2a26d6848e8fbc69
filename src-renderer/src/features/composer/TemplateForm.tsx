/** Asks the variables of a resource template before it is attached. */
import { useState, type JSX, type KeyboardEvent } from 'react'
import type { McpResourceTemplate } from '../../../../src-preload/contract/mcp-catalog'

export function TemplateForm(props: {
  template: McpResourceTemplate
  onAttach: (values: Record<string, string>) => void
  onCancel: () => void
}): JSX.Element {
  const t = props.template
  const [values, setValues] = useState<Record<string, string>>({})
  const complete = t.variables.every((v) => (values[v] ?? '').trim() !== '')
  const attach = (): void => {
    if (complete) props.onAttach(values)
  }
  const onKey = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key === 'Enter') {
      e.preventDefault()
      attach()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      props.onCancel()
    }
  }
  return (
    <div
      className="template-form"
      role="group"
      aria-label={`Attach ${t.title ?? t.name}`}
      onKeyDown={onKey}
    >
      <p>
        <strong>{t.title ?? t.name}</strong> <span className="meta">from {t.server}</span>
      </p>
      <p className="meta">
        <code>{t.uriTemplate}</code>
      </p>
      {t.variables.map((v, i) => (
        <label key={v}>
          {v}
          <input
            value={values[v] ?? ''}
            autoFocus={i === 0}
            onChange={(e) => setValues({ ...values, [v]: e.target.value })}
          />
        </label>
      ))}
      <div className="template-form-buttons">
        <button type="button" onClick={attach} disabled={!complete}>
          Attach
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}
