/** General: the language, the theme, Quick ask and the tray (desktop app), the limits of a turn, the system prompt, how chats are named, voice input, importing chats. */
import type { JSX } from 'react'
import { ImportChats } from './ImportChats'
import { LanguageChoice } from './LanguageChoice'
import { LimitsForm } from './LimitsForm'
import { QuickAskForm } from './QuickAskForm'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { SystemPromptForm } from './SystemPromptForm'
import { ThemeChoice } from './ThemeChoice'
import { TitlesToggle } from './TitlesToggle'
import { useFreshSettings } from '../../ui/forms/use-save-settings'
import { VoiceForm } from './VoiceForm'
import '../../ui/forms/forms.css'

export function GeneralSection(): JSX.Element {
  const settings = useFreshSettings()
  return (
    <>
      <LanguageChoice />
      <ThemeChoice />
      <QuickAskForm />
      {settings.data ? (
        <>
          <LimitsForm settings={settings.data} />
          <SystemPromptForm saved={settings.data.systemPrompt} />
          <TitlesToggle saved={settings.data.generateTitles} />
          <VoiceForm saved={settings.data.voice} />
          <ImportChats />
        </>
      ) : (
        <SettingsLoading query={settings} />
      )}
    </>
  )
}
