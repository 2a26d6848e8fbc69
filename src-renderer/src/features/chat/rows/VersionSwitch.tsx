import type { JSX } from 'react'
import type { Versions } from '../../../state/conversation'
import { useT } from '../../../i18n'
import { useRowActions } from './actions'

/**
 * "‹ 2/3 ›": the versions at a point (edits of a message, answers to one); another opens
 * its branch, and the conversation below follows it.
 */
export function VersionSwitch(props: { versions: Versions }): JSX.Element {
  const { pick } = useRowActions()
  const { index, count, seqs } = props.versions
  const t = useT()
  return (
    <span className="versions" role="group" aria-label={t('chat.versions.group')}>
      <button
        type="button"
        className="action"
        aria-label={t('chat.versions.previous')}
        disabled={index === 0}
        onClick={() => pick(seqs[index - 1]!)}
      >
        ‹
      </button>
      <span aria-live="polite">
        {index + 1}/{count}
      </span>
      <button
        type="button"
        className="action"
        aria-label={t('chat.versions.next')}
        disabled={index === count - 1}
        onClick={() => pick(seqs[index + 1]!)}
      >
        ›
      </button>
    </span>
  )
}

/** "Branch into new chat": a new chat holding the conversation up to this message */
export function ForkButton(props: { messageId: string }): JSX.Element {
  const { fork } = useRowActions()
  const t = useT()
  return (
    <button type="button" className="action" onClick={() => fork?.(props.messageId)}>
      {t('chat.fork')}
    </button>
  )
}
