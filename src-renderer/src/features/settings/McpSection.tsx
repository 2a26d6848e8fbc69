/**
 * MCP servers ("MCP doctor"): every configured server with its live status, why one does
 * not start, its tools and its stderr; Restart, on/off, trust, Remove; and adding servers.
 * A server's command runs only after the user confirmed its complete command line: in the
 * page here (browser mode, the host checks the confirmed fingerprint) or in the desktop
 * app's own dialog, raised by the main process.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState, type JSX } from 'react'
import type { McpCommandLine } from '../../../../src-preload/contract/dto'
import type { RouteInput } from '../../../../src-preload/contract/routes'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { McpAddServer } from './McpAddServer'
import { McpClientForm } from './McpClientForm'
import { McpConsentDialog } from './McpConsentDialog'
import { McpServerRow, type McpRowActions } from './McpServerRow'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings } from '../../ui/forms/use-save-settings'
import { mcpKey, setServers, useMcpServers, type McpList } from '../../state/mcp-servers'
import './mcp.css'
import '../../ui/forms/forms.css'

export function McpSection(): JSX.Element {
  const { bridge, platform } = usePlatform()
  const client = useQueryClient()
  const list = useMcpServers()
  const settings = useFreshSettings()
  const [busy, setBusy] = useState<string | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [consent, setConsent] = useState<{ name: string; line: McpCommandLine } | null>(null)
  const [consentError, setConsentError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  const act = async (name: string, work: () => Promise<void>): Promise<boolean> => {
    setBusy(name)
    setErrors(({ [name]: _, ...rest }) => rest)
    try {
      await work()
      return true
    } catch (e) {
      setErrors((all) => ({ ...all, [name]: (e as Error).message }))
      return false
    } finally {
      setBusy(null)
    }
  }
  const update = (input: RouteInput<'mcp.update'>): Promise<void> =>
    call(bridge, 'mcp.update', input).then((r) => setServers(client, r.servers))

  const actions: McpRowActions = {
    setEnabled: (s, on) => {
      // the desktop app asks in its own dialog; the page asks here and proves it to the host
      if (on && s.commandLine && platform.kind !== 'desktop') {
        setConsentError(null)
        setConsent({ name: s.name, line: s.commandLine })
        return
      }
      void act(s.name, () => update({ name: s.name, enabled: on }))
    },
    setTrust: (s, on) => void act(s.name, () => update({ name: s.name, trustAnnotations: on })),
    restart: (s) =>
      void act(s.name, async () => {
        const r = await call(bridge, 'mcp.restart', { name: s.name })
        const old = client.getQueryData<McpList>(mcpKey)
        if (old)
          setServers(
            client,
            old.servers.map((x) => (x.name === s.name ? r.server : x)),
          )
      }),
    remove: (s) =>
      void act(s.name, () =>
        call(bridge, 'mcp.remove', { name: s.name }).then((r) => setServers(client, r.servers)),
      ),
  }
  const confirm = (): void => {
    if (!consent) return
    const { name, line } = consent
    setBusy(name)
    update({ name, enabled: true, confirmedFingerprint: line.fingerprint })
      .then(() => setConsent(null))
      .catch((e: unknown) => setConsentError((e as Error).message))
      .finally(() => setBusy(null))
  }

  if (!list.data) return <SettingsLoading query={list} />
  const { servers, fromFile } = list.data
  return (
    <>
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
            onAdded={(names) =>
              setNotice(
                `Added ${names.join(', ')}, switched off: switch ${names.length === 1 ? 'it' : 'one'} on to start it.`,
              )
            }
          />
        </section>
      ) : null}
      {settings.data ? <McpClientForm saved={settings.data.mcp} /> : null}
      <McpConsentDialog
        request={consent}
        busy={busy !== null}
        error={consentError}
        onConfirm={confirm}
        onCancel={() => setConsent(null)}
      />
    </>
  )
}
