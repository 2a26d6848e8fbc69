/**
 * One MCP server: its name, status and transport; what went wrong, in words; and, opened,
 * the doctor's details — the command as configured and as found, the folders searched,
 * its tools, its stderr — with Restart, on/off, trust and Remove.
 */
import { useQuery } from '@tanstack/react-query'
import { useId, useState, type JSX } from 'react'
import type { McpServerInfo } from '../../../../src-preload/contract/dto'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { CommandLineView } from './McpConsentDialog'
import { McpLoginButton } from './McpLoginButton'
import { mcpStatus, transportLabel } from './mcp-status'

export interface McpRowActions {
  setEnabled(server: McpServerInfo, on: boolean): void
  setTrust(server: McpServerInfo, on: boolean): void
  restart(server: McpServerInfo): void
  remove(server: McpServerInfo): void
}

export function McpServerRow(props: {
  server: McpServerInfo
  readOnly: boolean
  busy: boolean
  error: string | null
  actions: McpRowActions
}): JSX.Element {
  const { server: s } = props
  const [open, setOpen] = useState(false)
  const status = mcpStatus(s)
  const detailsId = useId()
  const trustId = useId()
  return (
    <li className="mcp-server" aria-label={`${s.name}, ${status.label}`}>
      <div className="mcp-server-head">
        <h3 className="mcp-server-name">{s.name}</h3>
        <span className={`mcp-status mcp-status-${status.tone}`}>
          <span className="mcp-dot" aria-hidden="true" />
          {status.label}
        </span>
        <span className="meta">{transportLabel[s.transport]}</span>
        {s.state === 'ready' ? (
          <span className="meta">
            {s.tools.length} tool{s.tools.length === 1 ? '' : 's'}
          </span>
        ) : null}
        <button
          type="button"
          className="action mcp-toggle-details"
          aria-expanded={open}
          aria-controls={detailsId}
          aria-label={`${open ? 'Hide details' : 'Details'} of ${s.name}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide details' : 'Details'}
        </button>
      </div>
      <p className="mcp-command meta">
        <code>{s.command}</code>
      </p>
      {s.error && s.enabled ? (
        <p className="mcp-problem error" aria-label={`What went wrong with ${s.name}`}>
          {s.error}
        </p>
      ) : null}
      {props.error ? (
        <p role="alert" className="error">
          {props.error}
        </p>
      ) : null}
      <ServerControls {...props} trustId={trustId} />
      {!props.readOnly ? (
        <p id={trustId} className="meta mcp-trust-hint">
          Trusting annotations believes the server&apos;s own claims that a tool only reads or is
          destructive (read-only tools can then be allowed by the read-only policy). Off: every tool
          is treated as one that may change things.
        </p>
      ) : null}
      {open ? <McpDetails id={detailsId} server={s} /> : null}
    </li>
  )
}

/** Log in, on/off, trust, Restart, and Remove after a confirmation (not for a read-only list) */
function ServerControls(props: {
  server: McpServerInfo
  readOnly: boolean
  busy: boolean
  actions: McpRowActions
  /** the hint that says what trusting annotations means */
  trustId: string
}): JSX.Element {
  const { server: s, actions } = props
  const [confirmRemove, setConfirmRemove] = useState(false)
  return (
    <div className="mcp-controls">
      {s.state === 'needs-login' && s.enabled ? <McpLoginButton server={s} /> : null}
      {!props.readOnly ? (
        <label className="check-option">
          <input
            type="checkbox"
            role="switch"
            checked={s.enabled}
            disabled={props.busy}
            aria-label={`Enabled ${s.name}`}
            onChange={(e) => actions.setEnabled(s, e.target.checked)}
          />
          Enabled
        </label>
      ) : null}
      {!props.readOnly ? (
        <label className="check-option">
          <input
            type="checkbox"
            checked={s.trustAnnotations}
            disabled={props.busy}
            aria-describedby={props.trustId}
            aria-label={`Trust annotations of ${s.name}`}
            onChange={(e) => actions.setTrust(s, e.target.checked)}
          />
          Trust annotations
        </label>
      ) : null}
      <button
        type="button"
        disabled={!s.enabled || props.busy}
        aria-label={`Restart ${s.name}`}
        onClick={() => actions.restart(s)}
      >
        Restart
      </button>
      {!props.readOnly && !confirmRemove ? (
        <button
          type="button"
          className="danger"
          aria-label={`Remove ${s.name}`}
          onClick={() => setConfirmRemove(true)}
        >
          Remove
        </button>
      ) : null}
      {confirmRemove ? (
        <span className="mcp-confirm" role="group" aria-label={`Remove ${s.name}?`}>
          <span>Remove {s.name}? Its process stops.</span>
          <button type="button" className="danger" onClick={() => actions.remove(s)}>
            Remove
          </button>
          <button type="button" onClick={() => setConfirmRemove(false)}>
            Keep
          </button>
        </span>
      ) : null}
    </div>
  )
}

function McpDetails(props: { id: string; server: McpServerInfo }): JSX.Element {
  const { bridge } = usePlatform()
  const s = props.server
  const logs = useQuery({
    queryKey: ['mcp.logs', s.name, s.state, s.pid],
    queryFn: () => call(bridge, 'mcp.logs', { name: s.name }),
  })
  const tail = logs.data?.stderrTail ?? s.stderrTail
  return (
    <div id={props.id} className="mcp-details">
      <h4>Command</h4>
      {s.commandLine ? <CommandLineView line={s.commandLine} /> : <code>{s.command}</code>}
      <p>
        <span className="mcp-label">Runs as: </span>
        {s.resolvedCommand ? (
          <code>{s.resolvedCommand}</code>
        ) : (
          <span className="meta">
            {s.searchPath
              ? 'not found in the folders below'
              : 'not looked up yet (that happens when the server starts)'}
          </span>
        )}
        {s.pid && s.state !== 'error' && s.state !== 'stopped' ? (
          <span className="meta"> · process {s.pid}</span>
        ) : null}
        {s.restarts > 0 ? <span className="meta"> · restarted {s.restarts}×</span> : null}
        {s.protocolVersion ? <span className="meta"> · speaks MCP {s.protocolVersion}</span> : null}
      </p>
      {s.searchPath ? (
        <details className="mcp-path-box">
          <summary>Folders searched for the command (PATH): {s.searchPath.length}</summary>
          <ol className="mcp-path">
            {s.searchPath.map((d) => (
              <li key={d}>
                <code>{d}</code>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <h4>Tools</h4>
      {s.tools.length === 0 ? (
        <p className="meta">
          {s.state === 'ready' ? 'This server offers no tools.' : 'Known once the server is ready.'}
        </p>
      ) : (
        <ul className="mcp-tools" aria-label={`Tools of ${s.name}`}>
          {s.tools.map((t) => (
            <li key={t.name}>
              <code>{t.name}</code>
              {t.readOnly ? <span className="badge">Read-only</span> : null}
              {t.description ? <span className="meta"> {t.description}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <div className="mcp-log-head">
        <h4 id={`${props.id}-log`}>Error output (stderr)</h4>
        <button type="button" className="action" onClick={() => void logs.refetch()}>
          Refresh log
        </button>
      </div>
      <pre className="mcp-log" tabIndex={0} aria-labelledby={`${props.id}-log`}>
        {tail || '(nothing written)'}
      </pre>
    </div>
  )
}
