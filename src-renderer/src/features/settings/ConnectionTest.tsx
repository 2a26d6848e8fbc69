/**
 * "Test connection": asks the endpoint for its models with the URL and key as typed (or
 * the saved key) and lists what it found, or says exactly what failed.
 */
import { useState, type JSX } from 'react'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'

type Outcome =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'ok'; models: string[] }
  | { kind: 'failed'; message: string }

export interface ConnectionTestProps {
  baseURL: string
  /** the key as typed (empty: the saved key of `providerId`, if any) */
  apiKey: string
  providerId: string | null
  /** the URL's problem, if any: then nothing is sent */
  urlProblem: string | null
  /** a model was picked from the list */
  onPick?: (model: string) => void
}

export function ConnectionTest(props: ConnectionTestProps): JSX.Element {
  const { bridge } = usePlatform()
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' })
  const test = async (): Promise<void> => {
    if (props.urlProblem) {
      setOutcome({ kind: 'failed', message: props.urlProblem })
      return
    }
    setOutcome({ kind: 'testing' })
    try {
      const r = await call(bridge, 'providers.test', {
        baseURL: props.baseURL.trim(),
        ...(props.apiKey ? { apiKey: props.apiKey } : {}),
        ...(!props.apiKey && props.providerId ? { providerId: props.providerId } : {}),
      })
      setOutcome({ kind: 'ok', models: r.models })
    } catch (e) {
      setOutcome({ kind: 'failed', message: e instanceof Error ? e.message : String(e) })
    }
  }
  return (
    <div className="connection-test">
      <button type="button" onClick={() => void test()} disabled={outcome.kind === 'testing'}>
        Test connection
      </button>
      <div role="status" className="connection-result">
        {outcome.kind === 'testing' ? <span className="meta">Connecting…</span> : null}
        {outcome.kind === 'ok' ? (
          outcome.models.length === 0 ? (
            <span>Connected, but the endpoint lists no models.</span>
          ) : (
            <>
              <span>
                Connected: {outcome.models.length} model{outcome.models.length === 1 ? '' : 's'}
              </span>
              <ul className="model-list" aria-label="Models found">
                {outcome.models.slice(0, 50).map((m) => (
                  <li key={m}>
                    {props.onPick ? (
                      <button
                        type="button"
                        className="action"
                        aria-label={`Use ${m} as default model`}
                        onClick={() => props.onPick?.(m)}
                      >
                        {m}
                      </button>
                    ) : (
                      m
                    )}
                  </li>
                ))}
              </ul>
              {outcome.models.length > 50 ? (
                <span className="meta">and {outcome.models.length - 50} more</span>
              ) : null}
            </>
          )
        ) : null}
      </div>
      {outcome.kind === 'failed' ? (
        <p role="alert" className="error">
          Connection failed: {outcome.message}
        </p>
      ) : null}
    </div>
  )
}
