/**
 * Tools and workspace: the built-in tools, each on or off (saved at once), and the folder
 * the built-in file tools work in by default.
 */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { SaveStatus } from '../../ui/forms/SaveStatus'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings, useSaveSettings } from '../../ui/forms/use-save-settings'
import { WorkspaceForm } from './WorkspaceForm'
import '../../ui/forms/forms.css'

export function ToolsSection(): JSX.Element {
  const { bridge } = usePlatform()
  const settings = useFreshSettings()
  const builtins = useQuery({
    queryKey: ['tools.builtins'],
    queryFn: () => call(bridge, 'tools.builtins', {}),
    staleTime: Infinity,
  })
  if (!settings.data) return <SettingsLoading query={settings} />
  if (!builtins.data) return <SettingsLoading query={builtins} />
  return (
    <>
      <BuiltinToggles settings={settings.data} tools={builtins.data.tools} />
      <WorkspaceForm
        saved={settings.data.defaultWorkspace}
        fallback={builtins.data.defaultWorkspace}
      />
    </>
  )
}

function firstSentence(text: string): string {
  const m = /^[^\n]*?[.!?](?=\s|$)/.exec(text)
  return (m?.[0] ?? text.split('\n')[0] ?? '').slice(0, 240)
}

function BuiltinToggles(props: {
  settings: SettingsView
  tools: { name: string; title: string; description: string; readOnly: boolean }[]
}): JSX.Element {
  const saver = useSaveSettings()
  const saved = props.settings.builtinTools.disabled
  // a switch moves at once, while it is saved (and goes back if the save fails)
  const [pending, setPending] = useState<string[] | null>(null)
  const disabled = pending ?? saved
  useEffect(() => setPending(null), [saved])
  const toggle = (name: string, on: boolean): void => {
    const next = on ? disabled.filter((d) => d !== name) : [...new Set([...disabled, name])]
    setPending(next)
    void saver.save({ builtinTools: { disabled: next } }).then((ok) => {
      if (!ok) setPending(null)
    })
  }
  return (
    <fieldset className="settings-form">
      <legend>Built-in tools</legend>
      <p className="meta">
        Switched-off tools are not offered to the model. They work only inside the workspace folder.
      </p>
      <ul className="tool-toggles">
        {props.tools.map((t) => (
          <li key={t.name}>
            <label className="check-option">
              <input
                type="checkbox"
                checked={!disabled.includes(t.name)}
                aria-describedby={`builtin-${t.name}-about`}
                onChange={(e) => toggle(t.name, e.target.checked)}
              />
              <code>{t.name}</code>
              {t.readOnly ? <span className="badge">Read-only</span> : null}
            </label>
            <span id={`builtin-${t.name}-about`} className="meta tool-about">
              {t.title}: {firstSentence(t.description)}
            </span>
          </li>
        ))}
      </ul>
      <SaveStatus saver={saver} />
    </fieldset>
  )
}
