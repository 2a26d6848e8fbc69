/**
 * Settings › Models: the GGUF models Cairn runs itself (the provider `local`), a file added
 * from this machine, a search of Hugging Face with downloads, and the runtime's settings.
 */
import type { JSX } from 'react'
import { bytes, useLocalModels } from '../../state/local-models'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings } from '../../ui/forms/use-save-settings'
import { AddModelForm } from './AddModelForm'
import { Downloads } from './Downloads'
import { HubSearch } from './HubSearch'
import { ModelList } from './ModelList'
import { RuntimeForm } from './RuntimeForm'
import '../../ui/forms/forms.css'
import './models.css'

export function ModelsSection(): JSX.Element {
  const models = useLocalModels()
  const settings = useFreshSettings()
  if (!models.data) return <SettingsLoading query={models} />
  if (!settings.data) return <SettingsLoading query={settings} />
  const { memory } = models.data
  return (
    <>
      <p className="meta">
        Cairn runs these models itself, on this machine, with no other program and no network. This
        machine has {bytes(memory.total)} of memory ({bytes(memory.free)} free now).
      </p>
      <ModelList models={models.data.models} />
      <Downloads />
      <AddModelForm />
      <HubSearch />
      <RuntimeForm saved={settings.data.localModels} />
    </>
  )
}
