/**
 * A logged JSON object, one collapsible part per top-level key, as plain text (never
 * HTML). A search keeps the parts that contain it, open, with each match marked.
 */
import type { JSX, ReactNode } from 'react'

/** marks per part at most: a huge log stays responsive */
const MAX_MARKS = 500

export function highlight(text: string, query: string): ReactNode[] {
  if (!query) return [text]
  const lower = text.toLowerCase()
  const q = query.toLowerCase()
  const out: ReactNode[] = []
  let from = 0
  for (
    let at = lower.indexOf(q);
    at !== -1 && out.length < MAX_MARKS * 2;
    at = lower.indexOf(q, from)
  ) {
    if (at > from) out.push(text.slice(from, at))
    out.push(<mark key={at}>{text.slice(at, at + q.length)}</mark>)
    from = at + q.length
  }
  out.push(text.slice(from))
  return out
}

function pretty(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value))
}

export function JsonTree(props: {
  label: string
  value: Record<string, unknown> | null
  query: string
}): JSX.Element {
  const { value, query } = props
  if (!value) return <p className="meta">{props.label}: not logged.</p>
  const q = query.trim().toLowerCase()
  const parts = Object.entries(value)
    .map(([key, v]) => ({ key, text: pretty(v) }))
    .filter((p) => !q || p.key.toLowerCase().includes(q) || p.text.toLowerCase().includes(q))
  return (
    <div className="json-tree" role="group" aria-label={props.label}>
      <p className="label">{props.label}</p>
      {parts.length === 0 ? <p className="meta">Nothing here matches “{query.trim()}”.</p> : null}
      {parts.map((p) => (
        <details key={p.key} open={q ? true : undefined}>
          <summary>
            <code>{p.key}</code>
          </summary>
          <pre tabIndex={0}>{highlight(p.text, query.trim())}</pre>
        </details>
      ))}
    </div>
  )
}
