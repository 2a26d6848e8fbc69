/**
 * Which tools of one set (the built-in tools, or one MCP server's) an assistant offers:
 * all of them, none, or the chosen ones (checkboxes). A server may also be left "like
 * other servers" (not listed in the assistant).
 */
import { useId, type JSX } from 'react'
import type { ToolSelection } from '../../../../src-preload/contract/assistants'

export interface ToolInfo {
  name: string
  readOnly: boolean
  /** why it is not offered whatever the choice (switched off in the settings) */
  note?: string
}

type Mode = ToolSelection['mode'] | 'inherit'

const LABELS: Record<Mode, string> = {
  inherit: 'Like other servers',
  all: 'All',
  none: 'None',
  some: 'Chosen',
}

export function ToolSetChoice(props: {
  label: string
  /** null: not listed (like other servers); only where `canInherit` */
  selection: ToolSelection | null
  /** a server: it may be left out of the assistant, to follow what other servers offer */
  canInherit?: boolean
  tools: readonly ToolInfo[]
  /** shown under the choice (a server's state) */
  about?: string
  onChange(next: ToolSelection | null): void
}): JSX.Element {
  const group = useId()
  const { selection, tools } = props
  const mode: Mode = selection?.mode ?? 'inherit'
  const names = selection?.names ?? []
  const modes: Mode[] = props.canInherit
    ? ['inherit', 'all', 'none', 'some']
    : ['all', 'none', 'some']
  // a name the set does not have now (a server not connected) stays visible, and removable
  const shown: ToolInfo[] = [
    ...tools,
    ...names
      .filter((n) => !tools.some((t) => t.name === n))
      .map((n) => ({ name: n, readOnly: false, note: 'not found now' })),
  ]
  // the chosen names are kept whatever the mode, so "Chosen" comes back as it was
  const choose = (m: Mode): void => props.onChange(m === 'inherit' ? null : { mode: m, names })
  const toggle = (name: string, on: boolean): void =>
    props.onChange({
      mode: 'some',
      names: on ? [...names.filter((n) => n !== name), name] : names.filter((n) => n !== name),
    })

  return (
    <fieldset className="tool-set">
      <legend>{props.label}</legend>
      <div className="tool-set-modes">
        {modes.map((m) => (
          <label key={m} className="check-option">
            <input type="radio" name={group} checked={mode === m} onChange={() => choose(m)} />
            {LABELS[m]}
          </label>
        ))}
      </div>
      {props.about ? <p className="meta tool-set-about">{props.about}</p> : null}
      {mode === 'some' ? (
        shown.length === 0 ? (
          <p className="meta">No tools to choose from now.</p>
        ) : (
          <ul className="tool-set-list" aria-label={`Tools of ${props.label}`}>
            {shown.map((t) => (
              <li key={t.name}>
                <label className="check-option">
                  <input
                    type="checkbox"
                    checked={names.includes(t.name)}
                    onChange={(e) => toggle(t.name, e.target.checked)}
                  />
                  <code>{t.name}</code>
                  {t.readOnly ? <span className="badge">Read-only</span> : null}
                  {t.note ? <span className="meta">({t.note})</span> : null}
                </label>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </fieldset>
  )
}
