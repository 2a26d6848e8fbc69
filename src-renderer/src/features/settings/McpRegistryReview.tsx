/**
 * One registry server before it is added: who published it, each way to run it (a package
 * with its exact command line, a remote with its address; the ways Cairn refuses say why),
 * the values the chosen way needs (secrets typed hidden) and the name it gets. It is added
 * switched off: switching it on asks once more before its command runs.
 */
import { useState, type JSX } from 'react'
import type {
  RegistryInput,
  RegistryInstallOption,
  RegistryServerView,
} from '../../../../src-preload/contract/mcp-registry'
import { Field, TextField } from '../../ui/forms/Field'

export function McpRegistryReview(props: {
  server: RegistryServerView
  busy: boolean
  error: string | null
  fieldErrors: Record<string, string>
  onInstall(option: string, name: string, values: Record<string, string>): void
  onBack(): void
}): JSX.Element {
  const s = props.server
  const usable = s.options.filter((o) => !o.refused)
  const [choice, setChoice] = useState(usable[0]?.id ?? null)
  const [name, setName] = useState(s.suggestedName)
  const [values, setValues] = useState<Record<string, string>>({})
  const option = s.options.find((o) => o.id === choice) ?? null
  return (
    <section className="mcp-review" aria-label={`Review ${s.name}`}>
      <h4>
        {s.title ?? s.name} <span className="meta">{s.version}</span>
      </h4>
      {s.description ? <p>{s.description}</p> : null}
      <dl className="mcp-registry-facts">
        <dt>Registry name</dt>
        <dd>
          <code>{s.name}</code>
        </dd>
        <dt>Publisher</dt>
        <dd>
          {s.publisher.verifiedAs} (namespace <code>{s.publisher.namespace}</code>, verified by the
          registry)
        </dd>
        {s.publisher.repository ? (
          <>
            <dt>Source</dt>
            <dd>
              <code>{s.publisher.repository}</code>
            </dd>
          </>
        ) : null}
        {s.status && s.status !== 'active' ? (
          <>
            <dt>Status</dt>
            <dd>{s.status}</dd>
          </>
        ) : null}
      </dl>
      <fieldset className="mcp-registry-options">
        <legend>How to run it</legend>
        {s.options.map((o) => (
          <OptionChoice key={o.id} option={o} checked={o.id === choice} onPick={setChoice} />
        ))}
      </fieldset>
      {option && !option.refused ? (
        <OptionValues
          option={option}
          values={values}
          errors={props.fieldErrors}
          onValue={(id, v) => setValues({ ...values, [id]: v })}
        />
      ) : null}
      <TextField label="Name in Cairn" value={name} onValue={setName} />
      {props.error ? (
        <p role="alert" className="error">
          {props.error}
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={props.busy || !option || option.refused !== null || !name.trim()}
          onClick={() => option && props.onInstall(option.id, name.trim(), onlyOf(option, values))}
        >
          Add server
        </button>
        <button type="button" onClick={props.onBack}>
          Back
        </button>
      </div>
      <p className="meta">
        It is added switched off. Switching it on shows its complete command line and asks you
        before it runs.
      </p>
    </section>
  )
}

/** the values of the chosen way's inputs only */
function onlyOf(o: RegistryInstallOption, values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of o.inputs) if (values[i.id] !== undefined) out[i.id] = values[i.id]!
  return out
}

function OptionChoice(props: {
  option: RegistryInstallOption
  checked: boolean
  onPick(id: string): void
}): JSX.Element {
  const o = props.option
  const label =
    o.kind === 'remote'
      ? `Connect to ${o.target} (${o.type})`
      : `${o.type} package ${o.target}${o.version ? ` ${o.version}` : ''}`
  return (
    <label className="radio-option">
      <input
        type="radio"
        name="registry-option"
        checked={props.checked}
        disabled={o.refused !== null}
        onChange={() => props.onPick(o.id)}
      />
      <span>
        <span className="radio-label">{label}</span>
        {o.refused ? (
          <span className="meta radio-explain">Cannot be installed: {o.refused}</span>
        ) : (
          <code className="mcp-registry-line">
            {o.command ? [o.command, ...o.args].join(' ') : o.url}
          </code>
        )}
      </span>
    </label>
  )
}

function OptionValues(props: {
  option: RegistryInstallOption
  values: Record<string, string>
  errors: Record<string, string>
  onValue(id: string, value: string): void
}): JSX.Element | null {
  const { inputs } = props.option
  if (inputs.length === 0) return null
  return (
    <fieldset className="mcp-registry-values">
      <legend>What it needs</legend>
      {inputs.map((i) => (
        <InputField
          key={i.id}
          input={i}
          value={props.values[i.id]}
          error={props.errors[`values.${i.id}`] ?? null}
          onValue={(v) => props.onValue(i.id, v)}
        />
      ))}
    </fieldset>
  )
}

const KIND_WORD = { env: 'environment variable', header: 'header', argument: 'argument' }

function InputField(props: {
  input: RegistryInput
  value: string | undefined
  error: string | null
  onValue(v: string): void
}): JSX.Element {
  const i = props.input
  const label = `${i.name} (${KIND_WORD[i.kind]}${i.required ? ', required' : ''}${i.secret ? ', secret' : ''})`
  const hint = i.description || undefined
  const value = props.value ?? (i.secret ? '' : i.default)
  if (i.choices.length > 0)
    return (
      <Field label={label} hint={hint} error={props.error}>
        {(ids) => (
          <select {...ids} value={value} onChange={(e) => props.onValue(e.target.value)}>
            {i.required ? null : <option value="">(none)</option>}
            {i.choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
      </Field>
    )
  return (
    <TextField
      label={label}
      hint={hint}
      error={props.error}
      type={i.secret ? 'password' : 'text'}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onValue={props.onValue}
    />
  )
}
