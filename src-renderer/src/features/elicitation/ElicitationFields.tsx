/**
 * The fields of a server's form, one control per field kind: text (email, address, date,
 * date and time), numbers within their bounds, a checkbox, a list of choices (with the
 * server's titles), a set of checkboxes for a multiple choice. Each has a label, the
 * server's description as a hint, and its error beside it. Everything the server wrote is
 * shown as text.
 */
import type { JSX } from 'react'
import type { ElicitField, ElicitRaw } from '../../../../src-preload/contract/elicitation'

interface FieldProps {
  field: ElicitField
  value: ElicitRaw[string] | undefined
  error: string | undefined
  onChange(value: ElicitRaw[string]): void
  idPrefix: string
}

const INPUT_TYPE: Record<string, string> = { email: 'email', uri: 'url', date: 'date' }

function bounds(f: ElicitField): string | null {
  if (f.minimum !== undefined && f.maximum !== undefined) return `${f.minimum} to ${f.maximum}`
  if (f.minimum !== undefined) return `at least ${f.minimum}`
  if (f.maximum !== undefined) return `at most ${f.maximum}`
  return null
}

function hintOf(f: ElicitField): string {
  const extra =
    f.kind === 'number' || f.kind === 'integer'
      ? bounds(f)
      : f.format === 'date-time'
        ? 'like 2025-01-31T09:30Z'
        : f.kind === 'multi' && f.maxItems !== undefined
          ? `pick up to ${f.maxItems}`
          : null
  return [f.description, extra ? `(${extra})` : ''].filter(Boolean).join(' ')
}

function Field(props: FieldProps): JSX.Element {
  const { field: f, value, onChange } = props
  const parts = fieldParts(props)
  const { id, label, notes } = parts
  if (f.kind === 'boolean') {
    return (
      <div className="elicit-field elicit-check">
        <input
          type="checkbox"
          {...parts.common}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
        {notes}
      </div>
    )
  }
  if (f.kind === 'multi') return <MultiField {...props} parts={parts} />
  return (
    <div className="elicit-field field">
      <label htmlFor={id}>{label}</label>
      <Control field={f} value={value} onChange={onChange} common={parts.common} />
      {notes}
    </div>
  )
}

/** what every kind of field shows: its id, label, hint and error, and their wiring */
function fieldParts({ field: f, error, idPrefix }: FieldProps) {
  const id = `${idPrefix}-${f.name}`
  const hint = hintOf(f)
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': f.required || undefined,
  }
  const label = (
    <>
      {f.label}
      {f.required ? <span className="elicit-required"> (required)</span> : null}
    </>
  )
  const notes = (
    <>
      {hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
    </>
  )
  return { id, described, common, label, notes }
}

type FieldParts = ReturnType<typeof fieldParts>

/** a multiple choice: one checkbox per option, the picked ones kept in the options' order */
function MultiField(props: FieldProps & { parts: FieldParts }): JSX.Element {
  const { field: f, value, onChange, parts } = props
  const picked = Array.isArray(value) ? value : []
  return (
    <fieldset className="elicit-field elicit-multi" aria-describedby={parts.described || undefined}>
      <legend>{parts.label}</legend>
      {f.options.map((o) => (
        <label key={o.value} className="elicit-option">
          <input
            type="checkbox"
            checked={picked.includes(o.value)}
            onChange={(e) =>
              onChange(
                e.target.checked
                  ? f.options.map((x) => x.value).filter((v) => v === o.value || picked.includes(v))
                  : picked.filter((v) => v !== o.value),
              )
            }
          />
          {o.label}
        </label>
      ))}
      {parts.notes}
    </fieldset>
  )
}

/** the control of a field that holds text: a list of choices, a number, or a text input */
function Control(props: {
  field: ElicitField
  value: ElicitRaw[string] | undefined
  onChange(value: ElicitRaw[string]): void
  common: FieldParts['common']
}): JSX.Element {
  const { field: f, common, onChange } = props
  const text = typeof props.value === 'string' ? props.value : ''
  if (f.kind === 'choice') {
    const blank = !f.required || f.default === undefined
    return (
      <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {blank ? <option value="">{f.required ? 'Choose…' : '(none)'}</option> : null}
        {f.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    )
  }
  if (f.kind === 'number' || f.kind === 'integer') {
    return (
      <input
        type="number"
        {...common}
        value={text}
        step={f.kind === 'integer' ? 1 : 'any'}
        {...(f.minimum !== undefined ? { min: f.minimum } : {})}
        {...(f.maximum !== undefined ? { max: f.maximum } : {})}
        onChange={(e) => onChange(e.target.value)}
      />
    )
  }
  return (
    <input
      type={(f.format && INPUT_TYPE[f.format]) ?? 'text'}
      {...common}
      value={text}
      {...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {})}
      onChange={(e) => onChange(e.target.value)}
    />
  )
}

export function ElicitationFields(props: {
  fields: readonly ElicitField[]
  values: ElicitRaw
  errors: Record<string, string>
  onChange(name: string, value: ElicitRaw[string]): void
  idPrefix: string
}): JSX.Element {
  return (
    <div className="elicit-fields">
      {props.fields.map((f) => (
        <Field
          key={f.name}
          field={f}
          value={props.values[f.name]}
          error={props.errors[f.name]}
          onChange={(v) => props.onChange(f.name, v)}
          idPrefix={props.idPrefix}
        />
      ))}
    </div>
  )
}
