/** One LLM call of a turn: its timing, retries, usage, request and response. */
import type { JSX } from 'react'
import { CopyButton } from '../../../ui/CopyButton'
import { buildCurl } from './curl'
import { JsonTree } from './JsonTree'
import type { CallView } from './turn-calls'

const ms = (v: number | null): string =>
  v === null ? '—' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(2)} s`

function toolsLine(t: CallView['tools']): string {
  if (t === null) return '—'
  if (t.offered.length === 0) return 'none'
  const list = t.offered.join(', ')
  if (t.catalog)
    return `${t.offered.length}, with find_tools standing in for the ${t.total ?? 'other'} connected: ${list}`
  return `${t.offered.length}: ${list}`
}

export function CallDetails(props: { call: CallView; query: string }): JSX.Element {
  const c = props.call
  const title = `Call ${c.number}${c.round !== null ? ` · round ${c.round}` : ''}${
    c.attempt !== null && c.attempt > 1 ? ` · attempt ${c.attempt}` : ''
  }`
  return (
    <section className="inspector-call" aria-label={title}>
      <div className="inspector-call-head">
        <h3>{title}</h3>
        {c.baseURL && c.body !== null ? (
          <CopyButton text={buildCurl(c.baseURL, c.body)} label="Copy as curl" />
        ) : null}
      </div>
      <dl className="inspector-facts">
        <dt>Model</dt>
        <dd>{c.model ?? '—'}</dd>
        <dt>Started</dt>
        <dd>{c.startedAt ? new Date(c.startedAt).toLocaleString() : '—'}</dd>
        <dt>Latency</dt>
        <dd>{ms(c.latencyMs)}</dd>
        <dt>First token after</dt>
        <dd>{ms(c.timeToFirstTokenMs)}</dd>
        <dt>Usage</dt>
        <dd>
          {c.usage
            ? `${c.usage.inputTokens} in, ${c.usage.outputTokens} out${c.usage.estimated ? ' (estimated)' : ''}`
            : '—'}
        </dd>
        <dt>Status</dt>
        <dd>
          {c.status ?? 'no response logged'}
          {c.error ? ` — ${c.error.message}` : ''}
        </dd>
        <dt>Tools offered</dt>
        <dd>{toolsLine(c.tools)}</dd>
        <dt>Retries</dt>
        <dd>
          {c.retries.length === 0 ? (
            'none'
          ) : (
            <ul>
              {c.retries.map((r) => (
                <li key={r.attempt}>
                  attempt {r.attempt}: {r.reason} (waited {ms(r.delayMs)})
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <JsonTree label="Request" value={c.request} query={props.query} />
      <JsonTree label="Response" value={c.response} query={props.query} />
    </section>
  )
}
