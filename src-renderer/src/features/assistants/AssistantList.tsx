/** The assistants, by name: built-in ones and the default marked, each with its actions. */
import type { JSX } from 'react'
import type { Assistant, AssistantTools } from '../../../../src-preload/contract/assistants'

function setSummary(sel: { mode: 'all' | 'none' | 'some'; names: string[] }): string {
  if (sel.mode === 'all') return 'all'
  if (sel.mode === 'none') return 'none'
  return sel.names.length <= 3 ? sel.names.join(', ') || 'none' : `${sel.names.length} chosen`
}

/** in words: which tools the model may use */
function toolsSummary(t: AssistantTools): string {
  const servers = Object.entries(t.mcp.servers)
  const mcp =
    servers.length === 0
      ? t.mcp.others
      : `${servers.map(([name, sel]) => `${name}: ${setSummary(sel)}`).join('; ')}; others: ${t.mcp.others}`
  return `Built-in tools: ${setSummary(t.builtin)} · MCP tools: ${mcp}`
}

export interface ListActions {
  edit(a: Assistant): void
  duplicate(a: Assistant): void
  exportFile(a: Assistant): void
  askDelete(a: Assistant): void
}

export function AssistantList(props: {
  assistants: readonly Assistant[]
  defaultId: string
  actions: ListActions
}): JSX.Element {
  const { actions } = props
  return (
    <ul className="provider-list assistant-list" aria-label="Assistants">
      {props.assistants.map((a) => {
        const isDefault = a.id === props.defaultId
        return (
          <li key={a.id} className="provider-item" aria-label={a.name}>
            <div className="provider-main">
              <span className="assistant-title">
                <span className="provider-name">{a.name}</span>
                {isDefault ? <span className="badge">Default</span> : null}
                {a.origin === 'builtin' ? <span className="badge">Built-in</span> : null}
              </span>
              {a.description ? (
                <span className="assistant-description">{a.description}</span>
              ) : null}
              <span className="meta">
                {a.model ? `Model: ${a.model}` : 'The provider’s model'} · {toolsSummary(a.tools)}
              </span>
            </div>
            <div className="provider-actions">
              <button type="button" aria-label={`Edit ${a.name}`} onClick={() => actions.edit(a)}>
                Edit
              </button>
              <button
                type="button"
                aria-label={`Duplicate ${a.name}`}
                onClick={() => actions.duplicate(a)}
              >
                Duplicate
              </button>
              <button
                type="button"
                aria-label={`Export ${a.name}`}
                onClick={() => actions.exportFile(a)}
              >
                Export
              </button>
              {isDefault ? null : (
                <button
                  type="button"
                  aria-label={`Delete ${a.name}`}
                  onClick={() => actions.askDelete(a)}
                >
                  Delete
                </button>
              )}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
