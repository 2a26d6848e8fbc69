import { useEffect, useRef, useState, type JSX } from 'react'
import { useChat } from '../../state'

/**
 * "Allow tool call?": the tool, its server and the complete arguments, one request at a
 * time. Escape does not decide anything: the dialog stays until a button is chosen.
 */
export function ApprovalDialog(): JSX.Element | null {
  const request = useChat((s) => s.approvals.find((a) => a.sessionId === s.sessionId) ?? null)
  const respond = useChat((s) => s.respond)
  const [reason, setReason] = useState('')
  const first = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    setReason('')
    first.current?.focus()
  }, [request?.requestId])

  if (!request) return null
  const answer = (decision: 'allow_once' | 'allow_always' | 'deny'): void =>
    void respond(
      request.requestId,
      decision,
      decision === 'deny' && reason.trim() ? reason.trim() : undefined,
    )

  return (
    <div className="backdrop">
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="approval-title"
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.preventDefault()
        }}
      >
        <h2 id="approval-title">Allow tool call?</h2>
        <dl>
          <dt>Tool</dt>
          <dd className="approval-tool">{request.tool}</dd>
          <dt>Server</dt>
          <dd className="approval-server">
            {request.server}
            {request.trusted ? '' : ' (its read-only hints are not trusted)'}
          </dd>
          {request.description ? (
            <>
              <dt>What it does</dt>
              <dd>{request.description}</dd>
            </>
          ) : null}
        </dl>
        <p className="label">Arguments</p>
        <pre className="approval-arguments" aria-label="Arguments" tabIndex={0}>
          {JSON.stringify(request.arguments, null, 2)}
        </pre>
        <label className="reason">
          Reason if you deny (optional, sent to the model)
          <input value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <div className="dialog-actions">
          <button ref={first} onClick={() => answer('allow_once')}>
            Allow once
          </button>
          <button onClick={() => answer('allow_always')}>Always allow</button>
          <button className="danger" onClick={() => answer('deny')}>
            Deny
          </button>
        </div>
      </div>
    </div>
  )
}
