/**
 * One tool call: the tool and its server (named as in the approval dialog), the arguments,
 * what happened (waiting, running with the time so far, done, error, denied, cancelled;
 * who allowed it when nobody was asked), the result and how long it took.
 */
import { memo, useEffect, useRef, useState, type JSX } from 'react'
import type { ContentPart } from '../../../../src-preload/contract/dto'
import type { ToolView } from '../../state/turn-reducer'
import { serverLabel } from '../../ui/tool-label'
import { formatDuration, useNow } from '../../ui/use-now'
import { AppView, useToolViews } from './app-view/AppView'
import { useLive } from '../../state/context'
import { ToolProgress } from './ToolProgress'
import { useTargetCall } from './use-target'

export function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw || '{}'), null, 2)
  } catch {
    return raw
  }
}

function statusWords(t: ToolView, now: number): string {
  switch (t.status) {
    case 'pending':
      return 'Preparing'
    case 'waiting':
      return 'Waiting for approval'
    case 'running':
      if (t.asking) return 'Waiting for your answer'
      return t.startedAt ? `Running · ${formatDuration(Math.max(0, now - t.startedAt))}` : 'Running'
    case 'done':
      return 'Done'
    case 'failed':
      return 'Error'
    case 'denied':
      return t.decidedBy === 'policy' ? 'Denied by the permission policy' : 'Denied'
    case 'cancelled':
      return 'Cancelled'
  }
}

function approvalNote(t: ToolView): string | null {
  if (t.status === 'denied' || t.status === 'pending' || t.status === 'waiting') return null
  if (t.decidedBy === 'rule') return 'Auto-approved by an “Always allow” rule'
  if (t.decidedBy === 'policy') return 'Auto-approved by the permission policy'
  return null
}

/** Text that is a JSON object or array is shown pretty-printed. */
function structured(text: string): string | null {
  const s = text.trimStart()
  if (!s.startsWith('{') && !s.startsWith('[')) return null
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return null
  }
}

const LONG_LINES = 16
const LONG_CHARS = 1500

function LongText(props: { text: string; label: string }): JSX.Element {
  const [all, setAll] = useState(false)
  const lines = props.text.split('\n')
  const long = lines.length > LONG_LINES || props.text.length > LONG_CHARS
  const shown =
    long && !all ? lines.slice(0, LONG_LINES).join('\n').slice(0, LONG_CHARS) + '\n…' : props.text
  return (
    <>
      <pre className="tool-result-text" aria-label={props.label} tabIndex={0}>
        {shown}
      </pre>
      {long ? (
        <button type="button" className="action" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${lines.length} lines)`}
        </button>
      ) : null}
    </>
  )
}

function Images(props: { parts: ContentPart[]; tool: string }): JSX.Element | null {
  const images = props.parts.filter((p) => p.type === 'image')
  if (images.length === 0) return null
  return (
    <div className="tool-images">
      {images.map((p, i) =>
        p.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(p.mimeType) ? (
          <img
            key={i}
            src={`data:${p.mimeType};base64,${p.data}`}
            alt={`Image ${i + 1} returned by ${props.tool}`}
          />
        ) : null,
      )}
    </div>
  )
}

export const ToolCallCard = memo(function ToolCallCard(props: { tool: ToolView }): JSX.Element {
  const t = props.tool
  const now = useNow(t.status === 'running')
  const server = serverLabel(t.server)
  const note = approvalNote(t)
  const json = t.result !== null ? structured(t.result) : null
  // a search result found this call's result: it is highlighted and brought into view
  const target = useTargetCall() === t.callId
  const card = useRef<HTMLElement>(null)
  const view = useToolViews().find((v) => v.server === t.server && v.tool === t.tool)
  const sessionId = useLive((s) => s.currentId)
  useEffect(() => {
    if (target) card.current?.scrollIntoView({ block: 'center' })
  }, [target])
  return (
    <section
      ref={card}
      className={`tool tool-${t.status}${target ? ' tool-target' : ''}`}
      aria-label={`Tool call ${t.tool} on ${server}`}
      aria-current={target ? 'true' : undefined}
    >
      <header>
        <span className="tool-name">{t.tool}</span>
        <span className="tool-server">{server}</span>
        <span className="tool-status" role="status">
          {statusWords(t, now)}
        </span>
        {t.durationMs !== null && t.status !== 'running' ? (
          <span className="tool-duration">{formatDuration(t.durationMs)}</span>
        ) : null}
      </header>
      {note ? <p className="tool-note">{note}</p> : null}
      <ToolProgress tool={t} />
      <details className="tool-args">
        <summary>Arguments</summary>
        <pre tabIndex={0} aria-label="Tool arguments">
          {prettyArguments(t.rawArguments)}
        </pre>
      </details>
      {view ? <AppView tool={t} view={view} sessionId={sessionId} /> : null}
      {t.result !== null ? (
        <div className="tool-result">
          {t.parts ? <Images parts={t.parts} tool={t.tool} /> : null}
          <LongText text={json ?? t.result} label="Tool result" />
        </div>
      ) : null}
    </section>
  )
})
