/**
 * Providers: the configured endpoints, which one a new chat uses and with which model;
 * adding one from a preset, editing, removing (after a confirmation).
 */
import { useState, type JSX } from 'react'
import type { ProviderView, SettingsView } from '../../../../src-preload/contract/app-dto'
import { DefaultModelForm } from './DefaultModelForm'
import { PresetPicker } from './PresetPicker'
import type { ProviderPreset } from '../../state/provider-presets'
import { ProviderForm } from './ProviderForm'
import { draftFromPreset, draftFromProvider, removalPatch } from './provider-draft'
import { SaveStatus } from '../../ui/forms/SaveStatus'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings, useSaveSettings } from '../../ui/forms/use-save-settings'
import { useSectionMode } from '../../ui/forms/use-section-mode'
import '../../ui/forms/forms.css'

type Mode =
  | { kind: 'list' }
  | { kind: 'presets' }
  | { kind: 'add'; preset: ProviderPreset }
  | { kind: 'edit'; id: string }

export function ProvidersSection(): JSX.Element {
  const settings = useFreshSettings()
  if (!settings.data) return <SettingsLoading query={settings} />
  return <Providers settings={settings.data} />
}

function Providers({ settings }: { settings: SettingsView }): JSX.Element {
  const { mode, setMode, toList, listButton: addButton } = useSectionMode<Mode>({ kind: 'list' })
  const [confirming, setConfirming] = useState<string | null>(null)
  const [savedName, setSavedName] = useState<string | null>(null)
  const saver = useSaveSettings()
  const active = settings.providers.find((p) => p.id === settings.activeProviderId) ?? null
  const ids = settings.providers.map((p) => p.id)

  const done = (saved: string | null): void => {
    toList()
    saver.reset()
    setSavedName(saved)
  }

  if (mode.kind === 'presets')
    return (
      <PresetPicker
        onPick={(preset) => setMode({ kind: 'add', preset })}
        onCancel={() => done(null)}
      />
    )
  if (mode.kind === 'add')
    return (
      <ProviderForm
        settings={settings}
        editing={null}
        preset={mode.preset}
        initial={draftFromPreset(mode.preset, ids)}
        onDone={done}
      />
    )
  const edited = mode.kind === 'edit' ? settings.providers.find((p) => p.id === mode.id) : null
  if (edited)
    return (
      <ProviderForm
        settings={settings}
        editing={edited}
        initial={draftFromProvider(edited)}
        onDone={done}
      />
    )

  const remove = async (p: ProviderView): Promise<void> => {
    setSavedName(null)
    const ok = await saver.save(removalPatch(p.id, settings))
    if (ok) setConfirming(null)
  }

  return (
    <div className="providers">
      <p className="meta section-intro">
        A new chat uses the default provider and model. The environment variables CAIRN_BASE_URL and
        CAIRN_MODEL, when set, take precedence.
      </p>
      {settings.providers.length === 0 ? (
        <p>No provider yet. Add one to start chatting.</p>
      ) : (
        <ul className="provider-list" aria-label="Configured providers">
          {settings.providers.map((p) => (
            <ProviderItem
              key={p.id}
              provider={p}
              isDefault={p.id === settings.activeProviderId}
              confirming={confirming === p.id}
              confirm={(yes) => setConfirming(yes ? p.id : null)}
              remove={() => void remove(p)}
              makeDefault={() =>
                void saver
                  .save({ activeProviderId: p.id, activeModel: null })
                  .then(() => setSavedName(null))
              }
              edit={() => setMode({ kind: 'edit', id: p.id })}
            />
          ))}
        </ul>
      )}
      <div className="form-actions">
        <button
          ref={addButton}
          type="button"
          className="primary"
          onClick={() => setMode({ kind: 'presets' })}
        >
          Add provider
        </button>
        {saver.state === 'idle' && savedName ? (
          <SaveStatus saver={{ state: 'saved', error: null }} savedText={`Saved ${savedName}.`} />
        ) : (
          <SaveStatus saver={saver} />
        )}
      </div>
      {active ? (
        <DefaultModelForm key={active.id} provider={active} activeModel={settings.activeModel} />
      ) : null}
    </div>
  )
}

/** One configured provider: its address, model and key; make it the default, edit, remove. */
function ProviderItem(props: {
  provider: ProviderView
  isDefault: boolean
  /** the removal waits for a confirmation */
  confirming: boolean
  confirm(yes: boolean): void
  remove(): void
  makeDefault(): void
  edit(): void
}): JSX.Element {
  const { provider: p, isDefault } = props
  return (
    <li className="provider-item" aria-label={p.name}>
      <div className="provider-main">
        <span className="provider-name">{p.name}</span>
        {isDefault ? <span className="badge">Default</span> : null}
        <span className="meta provider-url">{p.baseURL}</span>
        <span className="meta">
          {p.defaultModel ? `Model: ${p.defaultModel}` : 'No default model'} ·{' '}
          {p.apiKey ? `Key saved (${p.apiKey})` : 'No key'}
        </span>
      </div>
      {props.confirming ? (
        <div className="provider-actions" role="group" aria-label={`Remove ${p.name}?`}>
          <span>Remove {p.name} and its key?</span>
          <button type="button" className="danger" onClick={props.remove}>
            Remove
          </button>
          <button type="button" onClick={() => props.confirm(false)}>
            Keep
          </button>
        </div>
      ) : (
        <div className="provider-actions">
          {!isDefault ? (
            <button
              type="button"
              aria-label={`Make ${p.name} the default`}
              onClick={props.makeDefault}
            >
              Make default
            </button>
          ) : null}
          <button type="button" aria-label={`Edit ${p.name}`} onClick={props.edit}>
            Edit
          </button>
          <button type="button" aria-label={`Remove ${p.name}`} onClick={() => props.confirm(true)}>
            Remove
          </button>
        </div>
      )}
    </li>
  )
}
