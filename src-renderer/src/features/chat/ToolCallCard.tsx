/**
 * One tool call: the tool and its server (named as in the approval dialog), the arguments,
 * what happened (waiting, running with the time so far, done, error, denied, cancelled;
 * who allowed it when nobody was asked), the result and how long it took.
 */
import { memo, useEffect, useRef, useState, type JSX } from 'react'
import type { ContentPart } from '../../../../src-preload/contract/dto'
import type { ToolView } from '../../state/turn-reducer'
import { serverLabel } from '../../ui/tool-label'
import { useT, type TFunction } from '../../i18n'
import { useDuration } from '../../i18n/format'
import { useNow } from '../../ui/use-now'
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

function statusWords(
  tool: ToolView,
  now: number,
  t: TFunction,
  duration: (ms: number) => string,
): string {
  switch (tool.status) {
    case 'pending':
      return t('tool.status.pending')
    case 'waiting':
      return t('tool.status.waiting')
    case 'running':
      if (tool.asking) return t('tool.status.asking')
      return tool.startedAt
        ? t('tool.status.runningFor', { time: duration(Math.max(0, now - tool.startedAt)) })
        : t('tool.status.running')
    case 'done':
      return t('tool.status.done')
    case 'failed':
      return t('tool.status.failed')
    case 'denied':
      return tool.decidedBy === 'policy' ? t('tool.status.deniedByPolicy') : t('tool.status.denied')
    case 'cancelled':
      return t('tool.status.cancelled')
  }
}

function approvalNote(tool: ToolView, t: TFunction): string | null {
  if (tool.status === 'denied' || tool.status === 'pending' || tool.status === 'waiting')
    return null
  if (tool.decidedBy === 'rule') return t('tool.autoByRule')
  if (tool.decidedBy === 'policy') return t('tool.autoByPolicy')
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
  const t = useT()
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
          {all ? t('tool.showLess') : t('tool.showAll', { count: lines.length })}
        </button>
      ) : null}
    </>
  )
}

function Images(props: { parts: ContentPart[]; tool: string }): JSX.Element | null {
  const images = props.parts.filter((p) => p.type === 'image')
  const t = useT()
  if (images.length === 0) return null
  return (
    <div className="tool-images">
      {images.map((p, i) =>
        p.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(p.mimeType) ? (
          <img
            key={i}
            src={`data:${p.mimeType};base64,${p.data}`}
            alt={t('tool.image', { n: i + 1, tool: props.tool })}
          />
        ) : null,
      )}
    </div>
  )
}

export const ToolCallCard = memo(function ToolCallCard(props: { tool: ToolView }): JSX.Element {
  const tool = props.tool
  const now = useNow(tool.status === 'running')
  const t = useT()
  const duration = useDuration()
  const server = serverLabel(tool.server)
  const note = approvalNote(tool, t)
  const json = tool.result !== null ? structured(tool.result) : null
  // a search result found this call's result: it is highlighted and brought into view
  const target = useTargetCall() === tool.callId
  const card = useRef<HTMLElement>(null)
  const view = useToolViews().find((v) => v.server === tool.server && v.tool === tool.tool)
  const sessionId = useLive((s) => s.currentId)
  useEffect(() => {
    if (target) card.current?.scrollIntoView({ block: 'center' })
  }, [target])
  return (
    <section
      ref={card}
      className={`tool tool-${tool.status}${target ? ' tool-target' : ''}`}
      aria-label={t('tool.card', { tool: tool.tool, server })}
      aria-current={target ? 'true' : undefined}
    >
      <header>
        <span className="tool-name">{tool.tool}</span>
        <span className="tool-server">{server}</span>
        <span className="tool-status" role="status">
          {statusWords(tool, now, t, duration)}
        </span>
        {tool.durationMs !== null && tool.status !== 'running' ? (
          <span className="tool-duration">{duration(tool.durationMs)}</span>
        ) : null}
      </header>
      {note ? <p className="tool-note">{note}</p> : null}
      <ToolProgress tool={tool} />
      <details className="tool-args">
        <summary>{t('tool.arguments')}</summary>
        <pre tabIndex={0} aria-label={t('tool.argumentsLabel')}>
          {prettyArguments(tool.rawArguments)}
        </pre>
      </details>
      {view ? <AppView tool={tool} view={view} sessionId={sessionId} /> : null}
      {tool.result !== null ? (
        <div className="tool-result">
          {tool.parts ? <Images parts={tool.parts} tool={tool.tool} /> : null}
          <LongText text={json ?? tool.result} label={t('tool.result')} />
        </div>
      ) : null}
    </section>
  )
})
