/**
 * How Cairn introduces itself to a remote server's authorization server: by the address of
 * a client ID metadata document (Cairn's own, published with it, or another https one),
 * where the server supports those; or by registering itself with each server. A server's
 * own OAuth entry overrides this.
 */
import { useState, type FormEvent, type JSX } from 'react'
import type { McpSettingsView } from '../../../../src-preload/contract/app-dto'
import { TextField } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

type Choice = 'cairn' | 'custom' | 'register'

function choiceOf(s: McpSettingsView): Choice {
  if (s.clientMetadataUrl === null) return 'register'
  return s.clientMetadataUrl === s.defaultClientMetadataUrl ? 'cairn' : 'custom'
}

function addressProblem(v: string): string | null {
  if (v === '') return 'Give the https address of the document.'
  try {
    return new URL(v).protocol === 'https:' ? null : 'The address must start with https://.'
  } catch {
    return 'This is not a web address.'
  }
}

export function McpClientForm(props: { saved: McpSettingsView }): JSX.Element {
  const saved = props.saved
  const [choice, setChoice] = useState<Choice>(choiceOf(saved))
  const [custom, setCustom] = useState(
    choiceOf(saved) === 'custom' ? (saved.clientMetadataUrl ?? '') : '',
  )
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()

  const pick = (c: Choice): void => {
    setChoice(c)
    setError(null)
    saver.reset()
  }
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const address = custom.trim()
    const problem = choice === 'custom' ? addressProblem(address) : null
    setError(problem)
    if (problem) return
    const clientMetadataUrl =
      choice === 'register' ? null : choice === 'cairn' ? saved.defaultClientMetadataUrl : address
    await saver.save({ mcp: { clientMetadataUrl } })
  }
  const option = (c: Choice, label: string, explain: JSX.Element | string): JSX.Element => (
    <label className="radio-option">
      <input
        type="radio"
        name="mcp-client"
        checked={choice === c}
        aria-describedby={`mcp-client-${c}-explain`}
        onChange={() => pick(c)}
      />
      <span>
        <span className="radio-label">{label}</span>
        <span id={`mcp-client-${c}-explain`} className="meta radio-explain">
          {explain}
        </span>
      </span>
    </label>
  )

  return (
    <form
      className="settings-form"
      aria-label="Logins to remote servers"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>Logins to remote servers</h3>
      <p className="meta">
        When a server&apos;s authorization server accepts client metadata documents, Cairn gives the
        address of one as its client id instead of registering itself there. A server whose entry
        names its own client keeps it.
      </p>
      <div className="radio-group" role="radiogroup" aria-label="Cairn’s client id">
        {option(
          'cairn',
          'Cairn’s own document',
          <code className="mcp-client-url">{saved.defaultClientMetadataUrl}</code>,
        )}
        {option(
          'custom',
          'A document I publish',
          'At an https address; its client_id is that address.',
        )}
        {choice === 'custom' ? (
          <TextField
            label="Address of the document"
            error={error}
            value={custom}
            placeholder="https://example.com/cairn-client.json"
            onValue={(v) => {
              setCustom(v)
              saver.reset()
              if (error) setError(addressProblem(v.trim()))
            }}
          />
        ) : null}
        {option(
          'register',
          'Register with each server instead',
          'Dynamic client registration, as with a server that does not accept documents.',
        )}
      </div>
      <SaveActions label="Save login settings" saver={saver} />
    </form>
  )
}
