/**
 * The model's reasoning: open and live while it streams, collapsed once the answer begins
 * (the user can open it again), with how long the model thought.
 */
import { memo, useState, type JSX } from 'react'
import { useTextRuns } from './text-runs'
import { useT } from '../../i18n'
import { useDuration } from '../../i18n/format'
import { useNow } from '../../ui/use-now'

export function Thinking(props: {
  text: string
  /** reasoning is still streaming (no answer text yet) */
  live: boolean
  startedAt: number | null
  ms: number | null
}): JSX.Element | null {
  const [userOpen, setUserOpen] = useState<boolean | null>(null)
  const now = useNow(props.live && props.ms === null && props.startedAt !== null)
  const t = useT()
  const duration = useDuration()
  if (!props.text) return null
  const open = userOpen ?? props.live
  const ms = props.ms ?? (props.live && props.startedAt !== null ? now - props.startedAt : null)
  const label = props.live
    ? ms !== null
      ? t('chat.thinking.liveFor', { time: duration(Math.max(0, ms)) })
      : t('chat.thinking.live')
    : ms !== null
      ? t('chat.thinking.thoughtFor', { time: duration(ms) })
      : t('chat.thinking.done')
  return (
    <details
      className="thinking"
      open={open}
      onToggle={(e) => {
        const isOpen = (e.currentTarget as HTMLDetailsElement).open
        if (isOpen !== open) setUserOpen(isOpen)
      }}
    >
      <summary>{label}</summary>
      <ThinkingText text={props.text} live={props.live} />
    </details>
  )
}

/** a run of the reasoning that no longer changes */
const Run = memo(function Run(props: { text: string }): JSX.Element {
  return <span className="thinking-run">{props.text}</span>
})

/** The reasoning in runs (`text-runs.ts`): while it streams, only its last run changes. */
function ThinkingText(props: { text: string; live: boolean }): JSX.Element {
  const { runs, open } = useTextRuns(props.text, props.live)
  return (
    <div className="thinking-text">
      {runs.map((run, i) => (
        <Run key={i} text={run} />
      ))}
      <span className="thinking-run">{open}</span>
    </div>
  )
}
