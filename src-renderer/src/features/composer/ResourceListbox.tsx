/** The `@` picker: the connected servers' resources and templates, as a listbox the caret drives. */
import type { JSX } from 'react'
import { choiceDetail, choiceLabel, type Choice } from './mentions'

export const LISTBOX_ID = 'resource-picker'
export const optionId = (i: number): string => `resource-option-${i}`

export function ResourceListbox(props: {
  choices: readonly Choice[]
  active: number
  loading: boolean
  problem: string | null
  onPick: (c: Choice) => void
}): JSX.Element {
  const { choices, active } = props
  return (
    <div className="resource-picker">
      <ul id={LISTBOX_ID} role="listbox" aria-label="Resources to attach">
        {choices.map((c, i) => (
          <li
            key={`${c.kind}:${choiceDetail(c)}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : undefined}
            // keeps the caret in the message box
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => props.onPick(c)}
          >
            <span className="resource-name">{choiceLabel(c)}</span>
            {c.kind === 'template' ? <span className="resource-kind"> template</span> : null}
            <span className="resource-detail">{choiceDetail(c)}</span>
          </li>
        ))}
      </ul>
      {choices.length === 0 ? (
        <p className="meta" role="status">
          {props.loading
            ? 'Listing the servers’ resources…'
            : (props.problem ?? 'No resource matches. Servers with resources list them here.')}
        </p>
      ) : null}
    </div>
  )
}
