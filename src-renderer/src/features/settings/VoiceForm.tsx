/**
 * Voice input: which MCP server listens when several offer the speech-to-text tools, and
 * whether what is said is sent at once or left in the box to edit. Saved in one request.
 */
import { useState, type FormEvent, type JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import type { FinalUtteranceMode } from '../../../../src-preload/contract/voice'
import { Trans, useT } from '../../i18n'
import { Field } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useMcpServers } from '../../state/mcp-servers'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

const VOICE_TOOLS = ['stt_start_session', 'stt_get_updates', 'stt_stop_session']

const FINAL_MODES: FinalUtteranceMode[] = ['send', 'compose']

export function VoiceForm(props: { saved: SettingsView['voice'] }): JSX.Element {
  const [server, setServer] = useState(props.saved.server ?? '')
  const [mode, setMode] = useState<FinalUtteranceMode>(props.saved.finalUtterance)
  const saver = useSaveSettings()
  const t = useT()
  const servers = useMcpServers()
  const offering = (servers.data?.servers ?? [])
    .filter((s) => VOICE_TOOLS.every((t) => s.tools.some((x) => x.name === t)))
    .map((s) => s.name)
  // a server chosen earlier stays in the list while it is not running
  const choices = server && !offering.includes(server) ? [...offering, server] : offering

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    await saver.save({ voice: { server: server || null, finalUtterance: mode } })
  }
  const edited = (): void => saver.reset()

  return (
    <form
      className="settings-form"
      aria-label={t('general.voice.form')}
      onSubmit={(e) => void submit(e)}
    >
      <h3>{t('general.voice.heading')}</h3>
      <p className="meta">
        <Trans i18nKey="general.voice.about" components={{ code: <code /> }} />
      </p>
      <Field label={t('general.voice.server')} hint={t('general.voice.serverHint')}>
        {(ids) => (
          <select
            {...ids}
            value={server}
            onChange={(e) => {
              setServer(e.target.value)
              edited()
            }}
          >
            <option value="">{t('general.voice.onlyServer')}</option>
            {choices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="radio-group voice-final-choice">
        <legend>{t('general.voice.whatYouSay')}</legend>
        {FINAL_MODES.map((m) => (
          <label key={m} className="radio-option">
            <input
              type="radio"
              name="final-utterance"
              checked={mode === m}
              onChange={() => {
                setMode(m)
                edited()
              }}
            />
            <span className="radio-label">{t(`general.voice.${m}`)}</span>
          </label>
        ))}
      </fieldset>
      <SaveActions label={t('general.voice.save')} saver={saver} />
    </form>
  )
}
