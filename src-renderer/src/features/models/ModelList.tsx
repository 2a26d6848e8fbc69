/** The local models: each with what its file says, and Remove. */
import { useQueryClient } from '@tanstack/react-query'
import { useState, type JSX } from 'react'
import type { LocalModel } from '../../../../src-preload/contract/local-models'
import { usePlatform } from '../../state/context'
import { bytes, localModelsKey } from '../../state/local-models'
import { statusKey } from '../../state/provider-queries'
import { call } from '../../state/queries'

function source(m: LocalModel): string {
  return m.source.kind === 'file' ? m.source.path : `${m.source.repo} · ${m.source.file}`
}

export function ModelList(props: { models: LocalModel[] }): JSX.Element {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const remove = async (name: string): Promise<void> => {
    setError(null)
    try {
      await call(bridge, 'models.remove', { name })
      await client.invalidateQueries({ queryKey: localModelsKey, exact: true })
      void client.invalidateQueries({ queryKey: statusKey })
    } catch (e) {
      setError(`Could not remove ${name}: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  return (
    <section className="settings-form" aria-labelledby="models-list">
      <h3 id="models-list">Your models</h3>
      {props.models.length === 0 ? (
        <p className="meta">No local model yet: add a GGUF file or download one below.</p>
      ) : (
        <ul className="model-list" aria-label="Local models">
          {props.models.map((m) => (
            <li key={m.name}>
              <strong>{m.name}</strong>
              <span className="meta">
                {bytes(m.size)} · {m.architecture}
                {m.quantization ? ` · ${m.quantization}` : ''}
                {m.contextLength ? ` · trained for ${m.contextLength} tokens` : ''}
              </span>
              <span className="meta model-source">{source(m)}</span>
              <button
                type="button"
                aria-label={`Remove ${m.name}`}
                onClick={() => void remove(m.name)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  )
}
