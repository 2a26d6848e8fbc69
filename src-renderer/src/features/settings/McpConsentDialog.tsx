/**
 * Before a server's command first runs: the complete command line — the program, every
 * argument, the names of the environment variables it sets and its folder — and the
 * choice to start it or not. The host checks that what was confirmed is what will run.
 */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX } from 'react'
import type { McpCommandLine } from '../../../../src-preload/contract/dto'

export function CommandLineView(props: { line: McpCommandLine }): JSX.Element {
  const { line } = props
  return (
    <dl className="mcp-command-line">
      <dt>Program</dt>
      <dd>
        <code>{line.command}</code>
      </dd>
      <dt>Arguments</dt>
      <dd>
        {line.args.length === 0 ? (
          <span className="meta">none</span>
        ) : (
          <ol className="mcp-args">
            {line.args.map((a, i) => (
              <li key={i}>
                <code>{a}</code>
              </li>
            ))}
          </ol>
        )}
      </dd>
      {line.envNames.length > 0 ? (
        <>
          <dt>Environment variables</dt>
          <dd>
            <code>{line.envNames.join(', ')}</code>
          </dd>
        </>
      ) : null}
      {line.cwd ? (
        <>
          <dt>Working folder</dt>
          <dd>
            <code>{line.cwd}</code>
          </dd>
        </>
      ) : null}
    </dl>
  )
}

export function McpConsentDialog(props: {
  request: { name: string; line: McpCommandLine } | null
  busy: boolean
  error: string | null
  onConfirm: () => void
  onCancel: () => void
}): JSX.Element {
  const { request } = props
  return (
    <Dialog.Root open={request !== null} onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        {request ? (
          <Dialog.Content className="dialog mcp-consent">
            <div className="dialog-head">
              <Dialog.Title>Start MCP server?</Dialog.Title>
            </div>
            <Dialog.Description>
              Starting <strong>{request.name}</strong> runs this command on this computer, with your
              user&apos;s rights:
            </Dialog.Description>
            <CommandLineView line={request.line} />
            {props.error ? (
              <p role="alert" className="error">
                {props.error}
              </p>
            ) : null}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
              <button
                type="button"
                className="primary"
                disabled={props.busy}
                onClick={props.onConfirm}
              >
                Start server
              </button>
            </div>
          </Dialog.Content>
        ) : null}
      </Dialog.Portal>
    </Dialog.Root>
  )
}
