/**
 * The frame of a dialog that asks about a running turn (a tool call's approval, a server's
 * question): modal, the rest of the window out of reach, focus on the dialog itself and
 * never given back by the dialog, Esc answers through `onEscape`; its title, "1 of 3" when
 * more wait, and which chat it belongs to.
 */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX, ReactNode, RefObject } from 'react'
import { useT } from '../../i18n'
import { useLive } from '../../state/context'
import { useSession } from '../../state/queries'

function SessionName(props: { sessionId: string }): JSX.Element {
  const current = useLive((s) => s.currentId) === props.sessionId
  const title = useSession(props.sessionId).data?.title
  const t = useT()
  return (
    <p className="approval-session">
      {current ? t('approval.thisChat') : t('approval.otherChat', { title: title || t('chat.untitled') })}
    </p>
  )
}

export function AskDialog(props: {
  /** the session of the request shown; null: the dialog is closed */
  sessionId: string | null
  contentRef: RefObject<HTMLDivElement | null>
  className: string
  title: ReactNode
  /** how many requests wait, the one shown included */
  waiting: number
  /** the id of what describes the dialog, when it is not a Dialog.Description */
  describedBy?: string
  onEscape(): void
  children: ReactNode
}): JSX.Element {
  const { contentRef: content } = props
  const t = useT()
  return (
    <Dialog.Root open={props.sessionId !== null} modal>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        {props.sessionId !== null ? (
          <Dialog.Content
            ref={content}
            className={props.className}
            tabIndex={-1}
            {...(props.describedBy ? { 'aria-describedby': props.describedBy } : {})}
            onOpenAutoFocus={(e) => {
              e.preventDefault()
              content.current?.focus()
            }}
            onCloseAutoFocus={(e) => e.preventDefault()}
            onEscapeKeyDown={(e) => {
              e.preventDefault()
              props.onEscape()
            }}
            onPointerDownOutside={(e) => e.preventDefault()}
            onInteractOutside={(e) => e.preventDefault()}
          >
            <div className="dialog-head">
              <Dialog.Title>{props.title}</Dialog.Title>
              {props.waiting > 1 ? <span className="counter">{t('approval.counter', { count: props.waiting })}</span> : null}
            </div>
            <SessionName sessionId={props.sessionId} />
            {props.children}
          </Dialog.Content>
        ) : null}
      </Dialog.Portal>
    </Dialog.Root>
  )
}
