/**
 * One answer of the model: its reasoning, its text (Markdown), its tool calls, whether it
 * was stopped or cut, and under the last answer of an exchange: usage, Copy, Regenerate
 * and the versions.
 */
import { memo, type JSX } from 'react'
import type { Row } from '../../../state/conversation'
import { useLiveAnswer } from '../../../state/live-hooks'
import { CopyButton } from '../../../ui/CopyButton'
import { useT } from '../../../i18n'
import { useFormat } from '../../../i18n/format'
import { InspectButton } from '../inspector/InspectButton'
import { Markdown } from '../../../ui/markdown'
import { Thinking } from '../Thinking'
import { ToolCallCard } from '../ToolCallCard'
import { useRowActions } from './actions'
import { PinButton } from './PinButton'
import { ForkButton, VersionSwitch } from './VersionSwitch'

type AnswerRowData = Extract<Row, { kind: 'answer' }>

/** the answer's ends that are said under it */
const STATUS = ['stopped', 'interrupted', 'truncated'] as const
type Status = (typeof STATUS)[number]
const isStatus = (s: string): s is Status => (STATUS as readonly string[]).includes(s)

/** Continue, after an answer cut at the output limit, sends chat.continueText (the user's language). */
function ContinueButton(): JSX.Element {
  const { send } = useRowActions()
  const t = useT()
  return (
    <button
      type="button"
      className="action continue"
      onClick={() => send(t('chat.continueText'))}
    >
      {t('chat.continue')}
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
  const t = useT()
  const format = useFormat()
  const approx = f.usage?.estimated ? '≈' : ''
  return (
    <div className="msg-actions">
      {props.truncated && f.canRegenerate && f.continuable !== false ? <ContinueButton /> : null}
      {f.versions ? <VersionSwitch versions={f.versions} /> : null}
      {f.markdown ? <CopyButton text={f.markdown} label={t('chat.copyAnswer')} /> : null}
      {f.canRegenerate && f.userMessageId ? (
        <button type="button" className="action" onClick={() => regenerate?.(f.userMessageId!)}>
          {t('chat.regenerate')}
        </button>
      ) : null}
      {f.keep ? <PinButton messageId={f.keep.messageId} pinned={f.keep.pinned} /> : null}
      {f.keep && f.canRegenerate ? <ForkButton messageId={f.keep.messageId} /> : null}
      {f.turnId ? <InspectButton turnId={f.turnId} /> : null}
      {f.usage ? (
        <span className="meta usage" title={t('chat.turnTokens')}>
          {t('chat.usage', {
            input: approx + format.number(f.usage.inputTokens),
            output: approx + format.number(f.usage.outputTokens),
          })}
        </span>
      ) : null}
      {typeof f.usage?.cost === 'number' ? (
        <span className="meta cost" title={t('chat.turnCost')}>
          {format.usd(f.usage.cost)}
        </span>
      ) : null}
      {f.servedModel ? (
        <span
          className="meta served-model"
          title={
            props.model
              ? t('chat.servedInstead', { served: f.servedModel, asked: props.model })
              : t('chat.served', { served: f.servedModel })
          }
        >
          {t('chat.answeredBy', { model: f.servedModel })}
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
  const t = useT()
  const status = isStatus(answer.status) ? t(`chat.status.${answer.status}`) : null
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
          {t('chat.waiting')}
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
