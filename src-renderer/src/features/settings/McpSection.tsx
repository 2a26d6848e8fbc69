/**
 * MCP servers ("MCP doctor"): every configured server with its live status, why one does
 * not start, its tools and its stderr; Restart, on/off, trust, Remove; and adding servers.
 * A server's command runs only after the user confirmed its complete command line: in the
 * page here (browser mode, the host checks the confirmed fingerprint) or in the desktop
 * app's own dialog, raised by the main process.
 */
import { useState, type JSX } from 'react'
import { McpAddServer } from './McpAddServer'
import { McpClientForm } from './McpClientForm'
import { McpConsentDialog } from './McpConsentDialog'
import { McpExtensionInstall } from './McpExtensionInstall'
import { McpRegistryForm } from './McpRegistryForm'
import { McpServerRow } from './McpServerRow'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings } from '../../ui/forms/use-save-settings'
import { useMcpServers } from '../../state/mcp-servers'
import { useMcpServerActions } from './use-mcp-server-actions'
import './mcp.css'
import '../../ui/forms/forms.css'

export function McpSection(): JSX.Element {
  const list = useMcpServers()
  const { actions, busy, errors, ...consent } = useMcpServerActions()
  const settings = useFreshSettings()
  const [notice, setNotice] = useState<string | null>(null)

  if (!list.data) return <SettingsLoading query={list} />
  const { servers, fromFile } = list.data
  return (
    <McpExtensionInstall readOnly={fromFile} onAdded={setNotice}>
      <p className="section-intro meta">
        MCP servers give the model tools. A server that runs a command starts only after you have
        seen its complete command line and allowed it.
      </p>
      {fromFile ? (
        <p className="mcp-readonly" role="note">
          <strong>Read-only:</strong> this run&apos;s servers come from the file given with{' '}
          <code>--mcp-config</code>, so they cannot be added, changed or removed here. Change that
          file, or start Cairn without it to use the servers kept in the settings.
        </p>
      ) : null}
      <section aria-labelledby="mcp-list-title" className="settings-form">
        <h3 id="mcp-list-title">Servers</h3>
        {servers.length === 0 ? (
          <p className="meta">No MCP servers yet.</p>
        ) : (
          <ul className="mcp-list">
            {servers.map((s) => (
              <McpServerRow
                key={s.name}
                server={s}
                readOnly={fromFile}
                busy={busy === s.name}
                error={errors[s.name] ?? null}
                actions={actions}
              />
            ))}
          </ul>
        )}
        {notice ? (
          <p role="status" className="meta">
            {notice}
          </p>
        ) : null}
      </section>
      {!fromFile ? (
        <section aria-labelledby="mcp-add-title" className="settings-form">
          <h3 id="mcp-add-title">Add a server</h3>
          <McpAddServer
            registryUrl={settings.data?.mcpRegistryUrl ?? ''}
            onAdded={(names) =>
              setNotice(
                `Added ${names.join(', ')}, switched off: switch ${names.length === 1 ? 'it' : 'one'} on to start it.`,
              )
            }
          />
        </section>
      ) : null}
      {settings.data ? <McpClientForm saved={settings.data.mcp} /> : null}
      {settings.data && !fromFile ? <McpRegistryForm saved={settings.data.mcpRegistryUrl} /> : null}
      <McpConsentDialog
        request={consent.consent}
        busy={busy !== null}
        error={consent.consentError}
        onConfirm={consent.confirm}
        onCancel={consent.cancelConsent}
      />
    </McpExtensionInstall>
  )
}
