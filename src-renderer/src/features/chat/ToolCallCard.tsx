import type { JSX } from 'react'
import type { ToolStatus } from '../../state/turn-reducer'

const STATUS: Record<ToolStatus, string> = {
  pending: 'Pending',
  waiting: 'Waiting for approval',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied',
  cancelled: 'Cancelled',
}

export function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw || '{}'), null, 2)
  } catch {
    return raw
  }
}

export function ToolCallCard(props: {
  name: string
  server?: string
  rawArguments: string
  status: ToolStatus
  result: string | null
}): JSX.Element {
  return (
    <section className={`tool tool-${props.status}`} aria-label={`Tool call ${props.name}`}>
      <header>
        <span className="tool-name">{props.name}</span>
        {props.server ? <span className="tool-server">on {props.server}</span> : null}
        <span className="tool-status" role="status">
          {STATUS[props.status]}
        </span>
      </header>
      <details>
        <summary>Arguments</summary>
        <pre>{prettyArguments(props.rawArguments)}</pre>
      </details>
      {props.result !== null ? (
        <pre className="tool-result" aria-label="Tool result">
          {props.result}
        </pre>
      ) : null}
    </section>
  )
}
