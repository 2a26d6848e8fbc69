/**
 * Voice input: which MCP server listens when several offer the speech-to-text tools, and
 * whether what is said is sent at once or left in the box to edit. Saved in one request.
 */
import { useState, type FormEvent, type JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import type { FinalUtteranceMode } from '../../../../src-preload/contract/voice'
import { Field } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useMcpServers } from '../../state/mcp-servers'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

const VOICE_TOOLS = ['stt_start_session', 'stt_get_updates', 'stt_stop_session']

const FINAL_LABELS: Record<FinalUtteranceMode, string> = {
  send: 'Is sent as your message',
  compose: 'Is put in the message box to edit',
}

export function VoiceForm(props: { saved: SettingsView['voice'] }): JSX.Element {
  const [server, setServer] = useState(props.saved.server ?? '')
  const [mode, setMode] = useState<FinalUtteranceMode>(props.saved.finalUtterance)
  const saver = useSaveSettings()
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
    <form className="settings-form" aria-label="Voice input" onSubmit={(e) => void submit(e)}>
      <h3>Voice input</h3>
      <p className="meta">
        The microphone beside the message box listens through an MCP server that offers{' '}
        <code>stt_start_session</code>, <code>stt_get_updates</code> and{' '}
        <code>stt_stop_session</code>. Those calls are Cairn’s own: the model never sees them.
      </p>
      <Field label="Voice server" hint="Needed only when several servers offer voice input.">
        {(ids) => (
          <select
            {...ids}
            value={server}
            onChange={(e) => {
              setServer(e.target.value)
              edited()
            }}
          >
            <option value="">The only server that offers voice input</option>
            {choices.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="radio-group voice-final-choice">
        <legend>What you say</legend>
        {(Object.keys(FINAL_LABELS) as FinalUtteranceMode[]).map((m) => (
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
            <span className="radio-label">{FINAL_LABELS[m]}</span>
          </label>
        ))}
      </fieldset>
      <SaveActions label="Save voice input" saver={saver} />
    </form>
  )
}
