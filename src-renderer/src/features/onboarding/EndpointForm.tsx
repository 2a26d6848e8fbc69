/**
 * Any OpenAI-compatible endpoint: a preset (or "Custom endpoint"), its base URL and key,
 * "Test connection" (which lists the models), then a model and Save. Nothing is saved
 * before the connection works.
 */
import { useState, type JSX } from 'react'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { PRESETS, type ProviderPreset } from '../../state/provider-presets'
import { baseUrlProblem, endpointName, type NewProvider } from './provider-patch'

type Test =
  | { state: 'idle' }
  | { state: 'testing' }
  | { state: 'ok'; models: string[] }
  | { state: 'failed'; message: string }

export function EndpointForm(props: {
  busy: boolean
  onSave: (p: NewProvider) => void
}): JSX.Element {
  const { bridge } = usePlatform()
  const [presetId, setPresetId] = useState(PRESETS[0]!.id)
  const preset = PRESETS.find((p) => p.id === presetId) ?? PRESETS[0]!
  const [baseURL, setBaseURL] = useState(preset.baseURL)
  const [apiKey, setApiKey] = useState('')
  const [urlError, setUrlError] = useState<string | null>(null)
  const [test, setTest] = useState<Test>({ state: 'idle' })
  const [model, setModel] = useState('')
  const [modelError, setModelError] = useState<string | null>(null)

  const changed = (): void => setTest({ state: 'idle' })
  const pick = (id: string): void => {
    const next = PRESETS.find((p) => p.id === id)
    setPresetId(id)
    setBaseURL(next?.baseURL ?? '')
    setUrlError(null)
    changed()
  }

  const runTest = async (): Promise<void> => {
    const problem = baseUrlProblem(baseURL)
    setUrlError(problem)
    if (problem) return
    setTest({ state: 'testing' })
    try {
      const r = await call(bridge, 'providers.test', {
        baseURL: baseURL.trim(),
        ...(apiKey ? { apiKey } : {}),
      })
      setTest({ state: 'ok', models: r.models })
      setModel((m) => (m && r.models.includes(m) ? m : (r.models[0] ?? '')))
    } catch (e) {
      setTest({ state: 'failed', message: e instanceof Error ? e.message : String(e) })
    }
  }

  const save = (): void => {
    if (test.state !== 'ok') return
    if (!model.trim()) return setModelError('Choose the model to chat with.')
    setModelError(null)
    const custom = preset.id === 'custom'
    props.onSave({
      id: preset.id,
      name: custom ? endpointName(baseURL.trim()) : preset.name,
      baseURL: baseURL.trim(),
      model: model.trim(),
      ...(apiKey ? { apiKey } : {}),
    })
  }

  return (
    <section className="onb-part" aria-labelledby="onb-endpoint">
      <h3 id="onb-endpoint">Or connect to an endpoint</h3>
      <form
        className="onb-form"
        onSubmit={(e) => {
          e.preventDefault()
          void runTest()
        }}
      >
        <label htmlFor="onb-preset">Provider</label>
        <select id="onb-preset" value={presetId} onChange={(e) => pick(e.target.value)}>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <UrlField
          baseURL={baseURL}
          error={urlError}
          onChange={(url) => {
            setBaseURL(url)
            setUrlError(null)
            changed()
          }}
        />
        <KeyField
          apiKey={apiKey}
          preset={preset}
          onChange={(key) => {
            setApiKey(key)
            changed()
          }}
        />
        <div className="onb-actions">
          <button type="submit" disabled={test.state === 'testing'}>
            {test.state === 'testing' ? 'Testing…' : 'Test connection'}
          </button>
          <span role="status" className={test.state === 'failed' ? 'error' : 'meta'}>
            {testStatus(test)}
          </span>
        </div>
      </form>
      {test.state === 'ok' ? (
        <ModelStep
          models={test.models}
          model={model}
          setModel={setModel}
          error={modelError}
          busy={props.busy}
          onSave={save}
        />
      ) : null}
    </section>
  )
}

/** what the connection test came to */
function testStatus(test: Test): string {
  if (test.state === 'ok')
    return `Connected: ${test.models.length} model${test.models.length === 1 ? '' : 's'}.`
  return test.state === 'failed' ? `Could not connect: ${test.message}` : ''
}

/** Once connected: the model to chat with (typed when the server lists none), and Save. */
function ModelStep(props: {
  models: string[]
  model: string
  setModel(model: string): void
  error: string | null
  busy: boolean
  onSave(): void
}): JSX.Element {
  const { models, model, setModel, error } = props
  return (
    <div className="onb-form">
      <label htmlFor="onb-model">Model</label>
      <div>
        {models.length > 0 ? (
          <select id="onb-model" value={model} onChange={(e) => setModel(e.target.value)}>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input
            id="onb-model"
            value={model}
            placeholder="the server lists no models: type one"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'onb-model-error' : undefined}
            onChange={(e) => setModel(e.target.value)}
          />
        )}
        {error ? (
          <p id="onb-model-error" className="error field-error">
            {error}
          </p>
        ) : null}
      </div>
      <div className="onb-actions">
        <button type="button" className="primary" disabled={props.busy} onClick={props.onSave}>
          Save and start chatting
        </button>
      </div>
    </div>
  )
}

/** the API key, with where to get one for the preset; it stays on this machine */
function KeyField(props: {
  apiKey: string
  preset: ProviderPreset
  onChange(key: string): void
}): JSX.Element {
  const { preset } = props
  return (
    <>
      <label htmlFor="onb-key">API key</label>
      <div>
        <input
          id="onb-key"
          type="password"
          autoComplete="off"
          value={props.apiKey}
          placeholder={preset.needsKey ? 'required' : 'if the server needs one'}
          aria-describedby="onb-key-hint"
          onChange={(e) => props.onChange(e.target.value)}
        />
        <p id="onb-key-hint" className="meta field-hint">
          {preset.keyHint ? `Get one at ${preset.keyHint}. ` : ''}Kept on this machine only,
          readable only by you.
        </p>
      </div>
    </>
  )
}

function UrlField(props: {
  baseURL: string
  error: string | null
  onChange(url: string): void
}): JSX.Element {
  const { error } = props
  return (
    <>
      <label htmlFor="onb-url">Base URL</label>
      <div>
        <input
          id="onb-url"
          type="url"
          value={props.baseURL}
          placeholder="http://127.0.0.1:8080/v1"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'onb-url-error' : undefined}
          onChange={(e) => props.onChange(e.target.value)}
        />
        {error ? (
          <p id="onb-url-error" className="error field-error">
            {error}
          </p>
        ) : null}
      </div>
    </>
  )
}
