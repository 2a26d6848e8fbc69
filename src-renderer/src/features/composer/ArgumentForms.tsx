/**
 * Asks the values a server's prompt or resource template needs: one input a value, Enter
 * submits once the required ones are filled, Esc cancels. Empty values are left out.
 */
import { useState, type JSX, type KeyboardEvent, type ReactNode } from 'react'
import type {
  McpPrompt,
  McpResourceTemplate,
} from '../../../../src-preload/contract/resources-and-prompts'
import { promptCommand } from './prompt-commands'

interface Argument {
  name: string
  required: boolean
  description?: string | undefined
}

function ArgumentForm(props: {
  className: string
  label: string
  title: string
  server: string
  /** shown under the title */
  about: ReactNode
  args: readonly Argument[]
  /** a required one says so */
  markRequired: boolean
  submit: { label: string; primary: boolean }
  onSubmit: (values: Record<string, string>) => void
  onCancel: () => void
}): JSX.Element {
  const [values, setValues] = useState<Record<string, string>>({})
  const complete = props.args.every((a) => !a.required || (values[a.name] ?? '').trim() !== '')
  const submit = (): void => {
    if (!complete) return
    const filled: Record<string, string> = {}
    for (const a of props.args) if ((values[a.name] ?? '') !== '') filled[a.name] = values[a.name]!
    props.onSubmit(filled)
  }
  const onKey = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key === 'Enter') {
      e.preventDefault()
      submit()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      props.onCancel()
    }
  }
  return (
    <div className={props.className} role="group" aria-label={props.label} onKeyDown={onKey}>
      <p>
        <strong>{props.title}</strong> <span className="meta">from {props.server}</span>
      </p>
      {props.about}
      {props.args.map((a, i) => (
        <label key={a.name}>
          {a.name}
          {a.required && props.markRequired ? ' (required)' : ''}
          <input
            value={values[a.name] ?? ''}
            autoFocus={i === 0}
            aria-description={a.description}
            onChange={(e) => setValues({ ...values, [a.name]: e.target.value })}
          />
        </label>
      ))}
      <div className="template-form-buttons">
        <button
          type="button"
          className={props.submit.primary ? 'primary' : undefined}
          onClick={submit}
          disabled={!complete}
        >
          {props.submit.label}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}

/** A server prompt's arguments, asked before its messages are sent. */
export function PromptForm(props: {
  prompt: McpPrompt
  onUse: (args: Record<string, string>) => void
  onCancel: () => void
}): JSX.Element {
  const p = props.prompt
  return (
    <ArgumentForm
      className="template-form prompt-form"
      label={`Prompt /${promptCommand(p)}`}
      title={p.title ?? p.name}
      server={p.server}
      about={p.description ? <p className="meta">{p.description}</p> : null}
      args={p.arguments}
      markRequired
      submit={{ label: 'Send prompt', primary: true }}
      onSubmit={props.onUse}
      onCancel={props.onCancel}
    />
  )
}

/** A resource template's variables, asked before it is attached. */
export function TemplateForm(props: {
  template: McpResourceTemplate
  onAttach: (values: Record<string, string>) => void
  onCancel: () => void
}): JSX.Element {
  const t = props.template
  return (
    <ArgumentForm
      className="template-form"
      label={`Attach ${t.title ?? t.name}`}
      title={t.title ?? t.name}
      server={t.server}
      about={
        <p className="meta">
          <code>{t.uriTemplate}</code>
        </p>
      }
      args={t.variables.map((name) => ({ name, required: true }))}
      markRequired={false}
      submit={{ label: 'Attach', primary: false }}
      onSubmit={props.onAttach}
      onCancel={props.onCancel}
    />
  )
}
