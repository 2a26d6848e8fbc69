/**
 * The servers about to be added, each with its complete command line (or URL). They are
 * added switched off; starting one asks again.
 */
import type { JSX } from 'react'
import type { McpServerDraft } from '../../../../src-preload/contract/dto'
import { CommandLineView } from './McpConsentDialog'

export function McpDraftReview(props: {
  drafts: McpServerDraft[]
  source: string
  busy: boolean
  error: string | null
  onAdd: () => void
  onCancel: () => void
}): JSX.Element {
  const clash = props.drafts.filter((d) => d.exists)
  const n = props.drafts.length
  return (
    <section className="mcp-review" aria-label="Servers to add">
      <h4>
        {n} server{n === 1 ? '' : 's'} from {props.source}
      </h4>
      <p className="meta">
        Check what each one runs. They are added switched off; switching one on asks you once more
        before its command runs.
      </p>
      <ul className="mcp-review-list">
        {props.drafts.map((d) => (
          <li key={d.name} aria-label={d.name}>
            <strong>{d.name}</strong>
            {d.commandLine ? (
              <CommandLineView line={d.commandLine} />
            ) : (
              <p>
                <span className="mcp-label">URL: </span>
                <code>{d.command}</code>
              </p>
            )}
            {d.exists ? (
              <p className="error">
                A server named “{d.name}” exists already: remove it first, or rename this one.
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      {props.error ? (
        <p role="alert" className="error">
          {props.error}
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={props.busy || clash.length > 0}
          onClick={props.onAdd}
        >
          {n === 1 ? 'Add server' : `Add ${n} servers`}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}
