/**
 * One extension bundle before it is installed: who made it, what it says it offers, what it
 * needs (the system, the runtime found or not, its settings: sensitive ones typed hidden
 * and kept with the API keys) and exactly what it runs. It is installed switched off:
 * switching it on asks once more before its command runs.
 */
import { useState, type JSX } from 'react'
import type { ExtensionReview, ExtensionSetting } from '../../../../src-preload/contract/mcpb'
import { useT } from '../../i18n'
import { Field, TextField } from '../../ui/forms/Field'

export function McpExtensionReview(props: {
  review: ExtensionReview
  busy: boolean
  error: string | null
  onInstall(name: string, values: Record<string, string>): void
  onCancel(): void
}): JSX.Element {
  const t = useT()
  const r = props.review
  const [name, setName] = useState(r.suggestedName)
  const [values, setValues] = useState<Record<string, string>>({})
  const author = [r.author.name, r.author.email, r.author.url].filter(Boolean).join(', ')
  return (
    <section className="mcp-review" aria-label={t('extensions.reviewOf', { name: r.name })}>
      <h4>
        {r.displayName ?? r.name} <span className="meta">{r.version}</span>
      </h4>
      {r.description ? <p>{r.description}</p> : null}
      <dl className="mcp-registry-facts">
        <dt>{t('extensions.file')}</dt>
        <dd>
          <code>{r.file}</code>{' '}
          <span className="meta">
            {t('extensions.files', { n: r.files, kb: Math.round(r.bytes / 1024) })}
          </span>
        </dd>
        <dt>{t('extensions.author')}</dt>
        <dd>{author}</dd>
        {r.repository ? <Fact label={t('extensions.source')} code={r.repository} /> : null}
        {r.license ? <Fact label={t('extensions.license')} text={r.license} /> : null}
        <dt>{t('extensions.runtime')}</dt>
        <dd>
          {r.runtime.found ? (
            t('extensions.runtimeFound', { command: r.runtime.command, path: r.runtime.found })
          ) : (
            <span className="error">
              {t('extensions.runtimeMissing', { command: r.runtime.command })}
            </span>
          )}
        </dd>
        <Compatibility review={r} />
        <dt>{t('extensions.runs')}</dt>
        <dd>
          <code className="mcp-registry-line">{[r.command, ...r.args].join(' ')}</code>
          {r.envNames.length ? (
            <span className="meta"> {t('extensions.env', { names: r.envNames.join(', ') })}</span>
          ) : null}
        </dd>
      </dl>
      <Offers title={t('extensions.tools')} items={r.tools} generated={r.generated} />
      <Offers title={t('extensions.prompts')} items={r.prompts} generated={false} />
      {r.refused ? (
        <p role="alert" className="error">
          {t('extensions.refused', { reason: r.refused })}
        </p>
      ) : (
        <>
          {r.settings.length ? (
            <fieldset className="mcp-registry-values">
              <legend>{t('extensions.settings')}</legend>
              {r.settings.map((s) => (
                <SettingField
                  key={s.key}
                  setting={s}
                  value={values[s.key]}
                  onValue={(v) => setValues({ ...values, [s.key]: v })}
                />
              ))}
            </fieldset>
          ) : null}
          <TextField label={t('extensions.name')} value={name} onValue={setName} />
        </>
      )}
      {props.error ? (
        <p role="alert" className="error">
          {props.error}
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={props.busy || r.refused !== null || !name.trim()}
          onClick={() => props.onInstall(name.trim(), values)}
        >
          {t('extensions.installIt')}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t('extensions.cancel')}
        </button>
      </div>
      <p className="meta">{t('extensions.switchedOff')}</p>
    </section>
  )
}

function Fact(props: { label: string; code?: string; text?: string }): JSX.Element {
  return (
    <>
      <dt>{props.label}</dt>
      <dd>{props.code ? <code>{props.code}</code> : props.text}</dd>
    </>
  )
}

function Compatibility({ review }: { review: ExtensionReview }): JSX.Element | null {
  const t = useT()
  const c = review.compatibility
  const needs = Object.entries(c.runtimes).map(([k, v]) => `${k} ${v}`)
  if (c.platforms.length === 0 && needs.length === 0) return null
  return (
    <>
      <dt>{t('extensions.compatibility')}</dt>
      <dd>
        {[
          ...(c.platforms.length
            ? [t('extensions.systems', { list: c.platforms.join(', ') })]
            : []),
          ...(needs.length ? [t('extensions.needs', { list: needs.join(', ') })] : []),
        ].join('; ')}
      </dd>
    </>
  )
}

function Offers(props: {
  title: string
  items: { name: string; description: string }[]
  generated: boolean
}): JSX.Element | null {
  const t = useT()
  if (props.items.length === 0 && !props.generated) return null
  return (
    <div className="mcp-extension-offers">
      <h5>{props.title}</h5>
      <ul>
        {props.items.map((i) => (
          <li key={i.name}>
            <code>{i.name}</code>{' '}
            {i.description ? <span className="meta">{i.description}</span> : null}
          </li>
        ))}
      </ul>
      {props.generated ? <p className="meta">{t('extensions.generated')}</p> : null}
    </div>
  )
}

function SettingField(props: {
  setting: ExtensionSetting
  value: string | undefined
  onValue(v: string): void
}): JSX.Element {
  const t = useT()
  const s = props.setting
  const marks = [
    s.required ? t('extensions.required') : null,
    s.sensitive ? t('extensions.sensitive') : null,
  ].filter(Boolean)
  const label = marks.length ? `${s.title} (${marks.join(', ')})` : s.title
  const value = props.value ?? (s.sensitive ? '' : s.default)
  const hint = [s.description, s.multiple ? t('extensions.onePerLine') : '']
    .filter(Boolean)
    .join(' ')
  if (s.type === 'boolean')
    return (
      <Field label={label} hint={hint || undefined}>
        {(ids) => (
          <select {...ids} value={value} onChange={(e) => props.onValue(e.target.value)}>
            <option value="">{t('extensions.unset')}</option>
            <option value="true">{t('extensions.yes')}</option>
            <option value="false">{t('extensions.no')}</option>
          </select>
        )}
      </Field>
    )
  if (s.multiple)
    return (
      <Field label={label} hint={hint || undefined}>
        {(ids) => (
          <textarea
            {...ids}
            rows={3}
            spellCheck={false}
            value={value}
            onChange={(e) => props.onValue(e.target.value)}
          />
        )}
      </Field>
    )
  return (
    <TextField
      label={label}
      hint={hint || undefined}
      type={s.sensitive ? 'password' : s.type === 'number' ? 'number' : 'text'}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onValue={props.onValue}
    />
  )
}
