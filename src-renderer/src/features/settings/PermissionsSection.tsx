/**
 * Permissions: the policy for tool calls (saved as soon as it is chosen) and the remembered
 * "Always allow" decisions, each with a way to revoke it.
 */
import { useEffect, useState, type JSX } from 'react'
import type { PermissionPolicy } from '../../../../src-preload/contract/dto'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { SaveStatus } from '../../ui/forms/SaveStatus'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings, useSaveSettings } from '../../ui/forms/use-save-settings'
import '../../ui/forms/forms.css'

const POLICIES: { id: PermissionPolicy; label: string; explain: string }[] = [
  {
    id: 'ask',
    label: 'Ask',
    explain: 'Every tool call asks you first (except tools you always allow, listed below).',
  },
  {
    id: 'read-only',
    label: 'Read-only runs',
    explain:
      'Tools that say they only read run without asking (an MCP server’s word counts only once you trust it); the rest ask.',
  },
  { id: 'allow-all', label: 'Allow all', explain: 'Every tool call runs without asking.' },
  {
    id: 'deny-all',
    label: 'Deny all',
    explain: 'No tool runs; the model is told each call was denied.',
  },
]

/** The server of the built-in tools, as remembered rules name it. */
const BUILTIN_SERVER = 'cairn'
export const ruleServerLabel = (server: string): string =>
  server === BUILTIN_SERVER ? 'Built-in' : server

export function PermissionsSection(): JSX.Element {
  const settings = useFreshSettings()
  if (!settings.data) return <SettingsLoading query={settings} />
  return (
    <>
      <PolicyChoice settings={settings.data} />
      <AlwaysAllowRules settings={settings.data} />
    </>
  )
}

function PolicyChoice({ settings }: { settings: SettingsView }): JSX.Element {
  const saver = useSaveSettings()
  // the choice shows at once, while it is saved (and goes back if the save fails)
  const [picked, setPicked] = useState<PermissionPolicy | null>(null)
  const policy = picked ?? settings.permissionPolicy
  useEffect(() => setPicked(null), [settings.permissionPolicy])
  return (
    <fieldset className="settings-form radio-group">
      <legend>When the model calls a tool</legend>
      {POLICIES.map((p) => (
        <label key={p.id} className="radio-option">
          <input
            type="radio"
            name="permission-policy"
            value={p.id}
            checked={policy === p.id}
            aria-describedby={`policy-${p.id}-explain`}
            onChange={() => {
              setPicked(p.id)
              void saver.save({ permissionPolicy: p.id }).then((ok) => {
                if (!ok) setPicked(null)
              })
            }}
          />
          <span>
            <span className="radio-label">{p.label}</span>
            <span id={`policy-${p.id}-explain`} className="meta radio-explain">
              {p.explain}
            </span>
          </span>
        </label>
      ))}
      <SaveStatus saver={saver} />
    </fieldset>
  )
}

const when = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function AlwaysAllowRules({ settings }: { settings: SettingsView }): JSX.Element {
  const saver = useSaveSettings()
  const rules = settings.alwaysAllow
  return (
    <section className="settings-form" aria-labelledby="always-allow-title">
      <h3 id="always-allow-title">Always allowed</h3>
      <p className="meta">
        Tools you chose “Always allow” for run without asking while their server and description
        stay the same. Revoke one and Cairn asks again.
      </p>
      {rules.length === 0 ? (
        <p>No tool is always allowed.</p>
      ) : (
        <table className="rules">
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Tool</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={`${r.server}\n${r.tool}\n${r.fingerprint}`}>
                <td>{ruleServerLabel(r.server)}</td>
                <td>
                  <code>{r.tool}</code>
                </td>
                <td>{when(r.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Revoke ${ruleServerLabel(r.server)} ${r.tool}`}
                    onClick={() =>
                      void saver.save({
                        revokeAlwaysAllow: {
                          server: r.server,
                          tool: r.tool,
                          fingerprint: r.fingerprint,
                        },
                      })
                    }
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <SaveStatus saver={saver} savedText="Revoked" />
    </section>
  )
}
