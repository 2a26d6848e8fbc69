/**
 * What a running tool said of its progress: a bar when it gave a total, else its message
 * or the count so far. The server's message is text.
 */
import type { JSX } from 'react'
import type { ToolView } from '../../state/turn-reducer'
import './tool-progress.css'

export function ToolProgress(props: { tool: ToolView }): JSX.Element | null {
  const p = props.tool.progress
  if (!p || props.tool.status !== 'running') return null
  const total = p.total !== undefined && p.total > 0 ? p.total : null
  const value = total !== null ? Math.min(Math.max(p.progress, 0), total) : null
  const words =
    total !== null
      ? `${formatCount(value!)} of ${formatCount(total)}`
      : `${formatCount(p.progress)} so far`
  return (
    <div className="tool-progress">
      {total !== null ? (
        <progress
          max={total}
          value={value!}
          aria-label={`Progress of ${props.tool.tool}`}
          aria-valuetext={p.message ? `${words}: ${p.message}` : words}
        />
      ) : null}
      <span className="tool-progress-words">{p.message ? `${p.message} · ${words}` : words}</span>
    </div>
  )
}

function formatCount(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1)
}
