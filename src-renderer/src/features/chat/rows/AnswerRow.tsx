/**
 * One answer of the model: its reasoning, its text (Markdown), its tool calls, whether it
 * was stopped or cut, and under the last answer of an exchange: usage, Copy, Regenerate
 * and the versions.
 */
import { memo, type JSX } from 'react'
import type { Row } from '../../../state/conversation'
import { useLiveAnswer } from '../../../state/live-hooks'
import { CopyButton } from '../../../ui/CopyButton'
import { formatUsage } from '../../../ui/use-now'
import { formatUsd } from '../../../../../src-preload/contract/usage-format'
import { InspectButton } from '../inspector/InspectButton'
import { Markdown } from '../../../ui/markdown'
import { Thinking } from '../Thinking'
import { ToolCallCard } from '../ToolCallCard'
import { useRowActions } from './actions'
import { PinButton } from './PinButton'
import { ForkButton, VersionSwitch } from './VersionSwitch'

type AnswerRowData = Extract<Row, { kind: 'answer' }>

const STATUS: Record<string, string | undefined> = {
  stopped: 'Stopped',
  interrupted: 'Interrupted: the answer was cut off',
  truncated: "Cut at the model's output limit",
}

/** What Continue sends after an answer cut at the output limit. */
export const CONTINUE_TEXT = 'Continue from where you stopped.'

function ContinueButton(): JSX.Element {
  const { send } = useRowActions()
  return (
    <button type="button" className="action continue" onClick={() => send(CONTINUE_TEXT)}>
      Continue
    </button>
  )
}

function Footer(props: {
  footer: NonNullable<AnswerRowData['footer']>
  /** the answer was cut at the output limit: the newest one offers Continue */
  truncated: boolean
  /** the model asked for */
  model: string | null
}): JSX.Element {
  const f = props.footer
  const { regenerate } = useRowActions()
  return (
    <div className="msg-actions">
      {props.truncated && f.canRegenerate && f.continuable !== false ? <ContinueButton /> : null}
      {f.versions ? <VersionSwitch versions={f.versions} /> : null}
      {f.markdown ? <CopyButton text={f.markdown} label="Copy answer" /> : null}
      {f.canRegenerate && f.userMessageId ? (
        <button type="button" className="action" onClick={() => regenerate?.(f.userMessageId!)}>
          Regenerate
        </button>
      ) : null}
      {f.keep ? <PinButton messageId={f.keep.messageId} pinned={f.keep.pinned} /> : null}
      {f.keep && f.canRegenerate ? <ForkButton messageId={f.keep.messageId} /> : null}
      {f.turnId ? <InspectButton turnId={f.turnId} /> : null}
      {f.usage ? (
        <span
          className="meta usage"
          title="Tokens sent to and received from the model in this turn"
        >
          {formatUsage(f.usage)} tokens
        </span>
      ) : null}
      {typeof f.usage?.cost === 'number' ? (
        <span className="meta cost" title="What this turn cost, at the model's price">
          {formatUsd(f.usage.cost)}
        </span>
      ) : null}
      {f.servedModel ? (
        <span
          className="meta served-model"
          title={`The server answered with ${f.servedModel}${props.model ? `, not ${props.model} as asked` : ''}`}
        >
          answered by {f.servedModel}
        </span>
      ) : null}
    </div>
  )
}

export const AnswerRow = memo(function AnswerRow(props: { row: AnswerRowData }): JSX.Element {
  const { live, footer } = props.row
  // while it streams, the answer as it is now (the list's row is not made again for it)
  const answer = useLiveAnswer(props.row.key, live) ?? props.row.answer
  const streaming = answer.status === 'streaming'
  const status = STATUS[answer.status]
  const empty = !answer.text && !answer.reasoning && answer.tools.length === 0
  return (
    <article className="msg assistant" aria-label="Cairn" aria-busy={streaming}>
      <Thinking
        text={answer.reasoning}
        live={streaming && !answer.text}
        startedAt={answer.reasoningStartedAt}
        ms={answer.reasoningMs}
      />
      {answer.text ? (
        <div className="text">
          <Markdown text={answer.text} streaming={streaming} />
        </div>
      ) : null}
      {empty && streaming && live ? (
        <p className="meta waiting" role="status">
          Waiting for the model…
        </p>
      ) : null}
      {answer.tools.map((t, i) => (
        <ToolCallCard key={`${t.callId}:${i}`} tool={t} />
      ))}
      {status ? <p className="meta status">{status}</p> : null}
      {footer ? (
        <Footer footer={footer} truncated={answer.status === 'truncated'} model={props.row.model} />
      ) : null}
    </article>
  )
})
