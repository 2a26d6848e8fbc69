/** A folder path field: typed, or (where the host can show a folder picker) chosen. */
import type { JSX, ReactNode } from 'react'
import { usePlatform } from '../../state/context'
import { Field } from './Field'

export function FolderField(props: {
  label: string
  id?: string
  hint?: ReactNode
  error?: string | null
  value: string
  placeholder: string
  /** the folder picker's title */
  pickTitle: string
  onValue(value: string): void
  /** the folder picker could not be opened */
  onPickError(message: string): void
}): JSX.Element {
  const pick = usePlatform().platform.pickFolder
  return (
    <Field label={props.label} id={props.id} error={props.error} hint={props.hint}>
      {(ids) => (
        <span className="input-row">
          <input
            {...ids}
            value={props.value}
            placeholder={props.placeholder}
            onChange={(e) => props.onValue(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          {pick ? (
            <button
              type="button"
              onClick={() =>
                void pick(props.pickTitle).then(
                  (dir) => {
                    if (dir) props.onValue(dir)
                  },
                  (e: unknown) =>
                    props.onPickError(
                      `Could not open the folder picker: ${e instanceof Error ? e.message : String(e)}`,
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
  )
}
