/** The MCP registry "Add from registry…" searches: the official one, a mirror or a private one. */
import { useState, type FormEvent, type JSX } from 'react'
import { TextField } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

function addressProblem(v: string): string | null {
  try {
    return /^https?:$/.test(new URL(v).protocol) ? null : 'The address must start with https://.'
  } catch {
    return 'This is not a web address.'
  }
}

export function McpRegistryForm(props: { saved: string }): JSX.Element {
  const [address, setAddress] = useState(props.saved)
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const v = address.trim()
    const problem = addressProblem(v)
    setError(problem)
    if (!problem) await saver.save({ mcpRegistryUrl: v })
  }
  return (
    <form
      className="settings-form"
      aria-label="MCP registry"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>MCP registry</h3>
      <TextField
        label="Registry address"
        hint="Where “Add from registry…” and cairn mcp search look (the registry’s v0.1 API)."
        error={error}
        value={address}
        onValue={(v) => {
          setAddress(v)
          saver.reset()
          if (error) setError(addressProblem(v.trim()))
        }}
      />
      <SaveActions label="Save registry address" saver={saver} />
    </form>
  )
}
