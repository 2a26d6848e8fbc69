/**
 * A GGUF file from this machine, by its full path, typed or (the desktop app) chosen in the
 * system's file picker. Browser mode has no picker: its page cannot read a path from a file
 * chooser, and a model of several GB is not uploaded; Cairn copies it from disk. What is
 * wrong with the file stays beside the field, with what was typed.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent, type JSX } from 'react'
import { usePlatform } from '../../state/context'
import { localModelsKey } from '../../state/local-models'
import { statusKey } from '../../state/provider-queries'
import { call } from '../../state/queries'
import { Field } from '../../ui/forms/Field'
import { absolutePathProblem } from '../../ui/forms/absolute-path'

export function AddModelForm(): JSX.Element {
  const { bridge, platform } = usePlatform()
  const pick = platform.pickModelFile
  const client = useQueryClient()
  const [path, setPath] = useState('')
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [state, setState] = useState<'idle' | 'adding' | string>('idle')
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const p = path.trim()
    const problem = p ? absolutePathProblem(p) : 'Give the full path of a .gguf file.'
    setError(problem)
    if (problem) return
    setState('adding')
    try {
      const added = await call(bridge, 'models.add', {
        path: p,
        ...(name.trim() ? { name: name.trim() } : {}),
      })
      setState(`Added ${added.name}.`)
      setPath('')
      setName('')
      await client.invalidateQueries({ queryKey: localModelsKey, exact: true })
      void client.invalidateQueries({ queryKey: statusKey })
    } catch (err) {
      setState('idle')
      setError(err instanceof Error ? err.message : String(err))
    }
  }
  return (
    <form
      className="settings-form"
      aria-label="Add a model file"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>Add a GGUF file from this machine</h3>
      <Field
        label="Model file"
        error={error}
        hint="The full path of a .gguf file; Cairn copies it into its data folder and checks it."
      >
        {(ids) => (
          <span className="input-row">
            <input
              {...ids}
              value={path}
              placeholder="/home/me/Downloads/model-Q4_K_M.gguf"
              onChange={(e) => setPath(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
            {pick ? (
              <button
                type="button"
                onClick={() =>
                  void pick().then(
                    (chosen) => chosen && setPath(chosen),
                    (err: unknown) =>
                      setError(
                        `Could not open the file picker: ${err instanceof Error ? err.message : String(err)}`,
                      ),
                  )
                }
              >
                Choose…
              </button>
            ) : null}
          </span>
        )}
      </Field>
      <Field label="Name (optional)" hint="Default: the file's name.">
        {(ids) => (
          <input
            {...ids}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={state === 'adding'}>
          Add model
        </button>
        <span role="status" className="meta">
          {state === 'adding' ? 'Copying and checking…' : state === 'idle' ? '' : state}
        </span>
      </div>
    </form>
  )
}
