/** A labelled form field with its hint and its error, tied to the input for screen readers. */
import { useId, type InputHTMLAttributes, type JSX, type ReactNode } from 'react'

export interface FieldProps {
  label: string
  /** the control's id (default: a generated one) */
  id?: string
  /** shown under the field; read with it */
  hint?: ReactNode
  /** the problem with the value; marks the input invalid */
  error?: string | null
  /** renders the control with the ids it must carry */
  children: (ids: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode
}

export function Field(props: FieldProps): JSX.Element {
  const generated = useId()
  const id = props.id ?? generated
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy =
    [props.error ? errorId : null, props.hint ? hintId : null].filter(Boolean).join(' ') ||
    undefined
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(props.error ? { 'aria-invalid': true as const } : {}),
      })}
      {props.error ? (
        <span id={errorId} className="field-error error">
          {props.error}
        </span>
      ) : null}
      {props.hint ? (
        <span id={hintId} className="field-hint meta">
          {props.hint}
        </span>
      ) : null}
    </div>
  )
}

type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>

export interface TextFieldProps extends Omit<FieldProps, 'children'>, InputAttributes {
  value: string
  /** the new text, typed */
  onValue: (value: string) => void
}

/** A Field whose control is one text input; the other props go to the input. */
export function TextField(props: TextFieldProps): JSX.Element {
  const { label, id, hint, error, value, onValue, ...input } = props
  return (
    <Field label={label} id={id} hint={hint} error={error}>
      {(ids) => (
        <input {...ids} {...input} value={value} onChange={(e) => onValue(e.target.value)} />
      )}
    </Field>
  )
}

/** The errors shown after an edit: a fixed field loses its message, none is added before a submit. */
export function stillWrong<E extends Partial<Record<string, string>>>(shown: E, now: E): E {
  return Object.fromEntries(Object.keys(shown).flatMap((k) => (now[k] ? [[k, now[k]]] : []))) as E
}
