/**
 * "Allow tool call?": the tool and its server, what the tool says it does, the server's
 * claims about it, and the complete arguments. One request at a time, oldest first, from
 * any session ("1 of 3", and which chat it belongs to).
 *
 * A decision needs a deliberate act: focus starts on the dialog itself (never on an allow
 * button), a key press that began outside the dialog or before this request was shown (a
 * held Enter from the composer, its auto-repeat, a Space released on a button) activates
 * nothing (see `deliberate-keys.ts`), Esc denies, and the rest of the window is inert
 * while it is open (the composer sets `inert` itself). "Stop answer" stops the whole turn,
 * since the composer's Stop is out of reach behind the dialog.
 */
import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useRef, useState, type JSX, type MouseEvent } from 'react'
import type { ApprovalDecision } from '../../../../src-preload/contract/dto'
import type { ApprovalRequestEvent } from '../../../../src-preload/contract/events'
import { Trans, useT } from '../../i18n'
import { useLive } from '../../state/context'
import { serverLabel } from '../../ui/tool-label'
import { useDeliberateKeys } from '../../ui/ask-dialog/deliberate-keys'
import { AskDialog } from '../../ui/ask-dialog/AskDialog'
import { StopTurnButton } from '../../ui/ask-dialog/StopTurnButton'

function Badges(props: { request: ApprovalRequestEvent }): JSX.Element | null {
  const { annotations: a, trusted } = props.request
  const t = useT()
  const claims: { label: string; kind: string }[] = []
  if (a.readOnlyHint) claims.push({ label: t('approval.readOnly'), kind: 'safe' })
  if (a.destructiveHint) claims.push({ label: t('approval.destructive'), kind: 'danger' })
  if (a.openWorldHint) claims.push({ label: t('approval.openWorld'), kind: 'info' })
  if (claims.length === 0 && trusted) return null
  return (
    <ul className="badges" aria-label={t('approval.about')}>
      {claims.map((c) => (
        <li key={c.label} className={`badge badge-${c.kind}${trusted ? '' : ' claimed'}`}>
          {trusted ? c.label : t('approval.claimed', { claim: c.label })}
        </li>
      ))}
      {trusted ? null : <li className="badge badge-warning">{t('approval.untrusted')}</li>}
    </ul>
  )
}

export function ApprovalDialog(): JSX.Element {
  const approvals = useLive((s) => s.approvals)
  const respond = useLive((s) => s.respond)
  const request = approvals[0] ?? null
  const [reason, setReason] = useState('')
  const t = useT()
  const content = useRef<HTMLDivElement>(null)
  const deliberate = useDeliberateKeys(content, request?.requestId ?? null)

  useEffect(() => {
    setReason('')
    if (request) requestAnimationFrame(() => content.current?.focus())
  }, [request?.requestId])

  const answer = (decision: ApprovalDecision) => (e?: MouseEvent) => {
    if (!request) return
    if (e && !deliberate(e.currentTarget, e.detail)) return
    void respond(
      request.requestId,
      decision,
      decision === 'deny' && reason.trim() ? reason.trim() : undefined,
    )
  }

  return (
    <AskDialog
      sessionId={request?.sessionId ?? null}
      contentRef={content}
      className="dialog approval"
      title={t('approval.title')}
      waiting={approvals.length}
      onEscape={() => answer('deny')()}
    >
      {request ? (
        <>
          <Dialog.Description className="approval-what">
            <Trans
              i18nKey="approval.what"
              values={{ tool: request.tool, server: serverLabel(request.server) }}
              components={{
                tool: <span className="approval-tool" />,
                on: <span className="approval-on" />,
                server: <span className="approval-server" />,
              }}
            />
          </Dialog.Description>
          {request.fromView ? (
            <p className="approval-from-view" role="note">
              {t('approval.fromView', { server: serverLabel(request.server) })}
            </p>
          ) : null}
          {request.description ? (
            <p className="approval-description">{request.description}</p>
          ) : null}
          <Badges request={request} />
          <p className="label" id="approval-args-label">
            {t('tool.arguments')}
          </p>
          <pre className="approval-arguments" aria-label={t('tool.arguments')} tabIndex={0}>
            {JSON.stringify(request.arguments, null, 2)}
          </pre>
          <label className="reason">
            {t('approval.reason')}
            <input value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
          <div className="dialog-actions">
            {request.fromView ? null : (
              <StopTurnButton
                key={request.requestId}
                turnId={request.turnId}
                deliberate={deliberate}
              />
            )}
            <button type="button" className="danger" onClick={answer('deny')}>
              {t('approval.deny')}
            </button>
            <button type="button" onClick={answer('allow_always')}>
              {t('approval.always')}
            </button>
            <button type="button" className="primary" onClick={answer('allow_once')}>
              {t('approval.once')}
            </button>
          </div>
        </>
      ) : null}
    </AskDialog>
  )
}
