/** Add a server by hand: a command (with its arguments, environment and folder) or a URL. */
import { useState, type FormEvent, type JSX } from 'react'
import type { McpServerConfigDto } from '../../../../src-preload/contract/dto'
import { Field } from '../../ui/forms/Field'
import { emptyMcpForm, mcpFormToConfig, type McpFormErrors, type McpFormValues } from './mcp-form'

export function McpServerForm(props: {
  busy: boolean
  onReview: (name: string, config: McpServerConfigDto) => void
}): JSX.Element {
  const [v, setV] = useState<McpFormValues>(emptyMcpForm)
  const [errors, setErrors] = useState<McpFormErrors>({})
  const set =
    (key: keyof McpFormValues) =>
    (e: { target: { value: string } }): void => {
      setV({ ...v, [key]: e.target.value })
      if (errors[key]) setErrors({ ...errors, [key]: undefined })
    }
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const r = mcpFormToConfig(v)
    if ('errors' in r) {
      setErrors(r.errors)
      return
    }
    setErrors({})
    props.onReview(r.name, r.config)
  }
  return (
    <form className="mcp-form" onSubmit={submit} noValidate aria-label="Add a server">
      <Field
        label="Name"
        error={errors.name ?? null}
        hint="How the server and its tools are named."
      >
        {(ids) => <input {...ids} value={v.name} onChange={set('name')} autoComplete="off" />}
      </Field>
      <KindChoice kind={v.kind} setKind={(kind) => setV({ ...v, kind })} />
      {v.kind === 'command' ? (
        <CommandFields values={v} errors={errors} set={set} />
      ) : (
        <UrlFields values={v} errors={errors} set={set} />
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.busy}>
          Review
        </button>
      </div>
    </form>
  )
}

type Setter = (key: keyof McpFormValues) => (e: { target: { value: string } }) => void
interface FieldsProps {
  values: McpFormValues
  errors: McpFormErrors
  set: Setter
}

function KindChoice(props: {
  kind: McpFormValues['kind']
  setKind(kind: McpFormValues['kind']): void
}): JSX.Element {
  return (
    <fieldset className="radio-group mcp-kind">
      <legend>Type</legend>
      <label className="check-option">
        <input
          type="radio"
          name="mcp-kind"
          checked={props.kind === 'command'}
          onChange={() => props.setKind('command')}
        />
        Command (a program started on this computer)
      </label>
      <label className="check-option">
        <input
          type="radio"
          name="mcp-kind"
          checked={props.kind === 'url'}
          onChange={() => props.setKind('url')}
        />
        URL (a server reached over HTTP)
      </label>
    </fieldset>
  )
}

/** a program started on this computer: the command, its arguments, environment and folder */
function CommandFields({ values: v, errors, set }: FieldsProps): JSX.Element {
  return (
    <>
      <Field label="Command" error={errors.command ?? null} hint="e.g. npx, uvx or a full path.">
        {(ids) => <input {...ids} value={v.command} onChange={set('command')} spellCheck={false} />}
      </Field>
      <Field label="Arguments" hint="One per line, exactly as passed (no quoting needed).">
        {(ids) => (
          <textarea {...ids} rows={3} value={v.args} onChange={set('args')} spellCheck={false} />
        )}
      </Field>
      <Field
        label="Environment variables"
        error={errors.env ?? null}
        hint="NAME=value, one per line. The server gets only these, PATH and a few basics."
      >
        {(ids) => (
          <textarea {...ids} rows={2} value={v.env} onChange={set('env')} spellCheck={false} />
        )}
      </Field>
      <Field label="Working folder (optional)">
        {(ids) => <input {...ids} value={v.cwd} onChange={set('cwd')} spellCheck={false} />}
      </Field>
    </>
  )
}

/** a server reached over HTTP: its address and the headers sent to it */
function UrlFields({ values: v, errors, set }: FieldsProps): JSX.Element {
  return (
    <>
      <Field label="URL" error={errors.url ?? null}>
        {(ids) => (
          <input {...ids} type="url" value={v.url} onChange={set('url')} spellCheck={false} />
        )}
      </Field>
      <Field label="Headers" error={errors.headers ?? null} hint="Name: value, one per line.">
        {(ids) => (
          <textarea
            {...ids}
            rows={2}
            value={v.headers}
            onChange={set('headers')}
            spellCheck={false}
          />
        )}
      </Field>
    </>
  )
}
