/**
 * The tools an assistant may use: the built-in set, each configured MCP server (and any the
 * assistant names that is not configured now), and what servers not listed offer.
 */
import type { JSX } from 'react'
import type { AssistantTools, ToolSelection } from '../../../../src-preload/contract/assistants'
import type { BuiltinToolInfo } from '../../../../src-preload/contract/app-dto'
import type { McpServerInfo } from '../../../../src-preload/contract/dto'
import { fieldId } from './assistant-form'
import { ToolSetChoice } from './ToolSetChoice'

function serverAbout(s: McpServerInfo | undefined): string {
  if (!s) return 'Not configured now.'
  if (!s.enabled) return 'Switched off in the settings: it offers nothing now.'
  if (s.state !== 'ready') return `Not connected (${s.state}): its tools are listed once it runs.`
  return `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}.`
}

export function ToolsChoice(props: {
  tools: AssistantTools
  builtins: readonly BuiltinToolInfo[]
  /** the built-in tools switched off in the settings */
  disabledBuiltins: readonly string[]
  servers: readonly McpServerInfo[]
  error?: string
  onChange(next: AssistantTools): void
}): JSX.Element {
  const { tools } = props
  const names = [
    ...new Set([...props.servers.map((s) => s.name), ...Object.keys(tools.mcp.servers)]),
  ]
  const setServer = (name: string, sel: ToolSelection | null): void => {
    const servers = { ...tools.mcp.servers }
    if (sel) servers[name] = sel
    else delete servers[name]
    props.onChange({ ...tools, mcp: { ...tools.mcp, servers } })
  }
  const errorId = `${fieldId('tools')}-error`
  return (
    <fieldset
      id={fieldId('tools')}
      tabIndex={-1}
      className="assistant-tools"
      aria-describedby={props.error ? errorId : undefined}
    >
      <legend>Tools</legend>
      {props.error ? (
        <p id={errorId} className="field-error error">
          {props.error}
        </p>
      ) : null}
      <ToolSetChoice
        label="Built-in tools"
        selection={tools.builtin}
        tools={props.builtins.map((t) => ({
          name: t.name,
          readOnly: t.readOnly,
          ...(props.disabledBuiltins.includes(t.name)
            ? { note: 'switched off in the settings' }
            : {}),
        }))}
        onChange={(sel) => sel && props.onChange({ ...tools, builtin: sel })}
      />
      {names.map((name) => {
        const info = props.servers.find((s) => s.name === name)
        return (
          <ToolSetChoice
            key={name}
            label={`MCP server ${name}`}
            canInherit
            selection={tools.mcp.servers[name] ?? null}
            // a server's word that a tool only reads counts once you trust it (as in the preview)
            tools={(info?.tools ?? []).map((t) => ({
              name: t.name,
              readOnly: t.readOnly && info!.trustAnnotations,
            }))}
            about={serverAbout(info)}
            onChange={(sel) => setServer(name, sel)}
          />
        )
      })}
      <fieldset className="tool-set">
        <legend>Other MCP servers</legend>
        <p className="meta tool-set-about">
          {names.length === 0
            ? 'No MCP server is configured. Servers added later offer:'
            : 'Servers not listed above, and servers added later, offer:'}
        </p>
        <div className="tool-set-modes">
          {(['all', 'none'] as const).map((m) => (
            <label key={m} className="check-option">
              <input
                type="radio"
                name="assistant-mcp-others"
                checked={tools.mcp.others === m}
                onChange={() => props.onChange({ ...tools, mcp: { ...tools.mcp, others: m } })}
              />
              {m === 'all' ? 'All their tools' : 'No tools'}
            </label>
          ))}
        </div>
      </fieldset>
    </fieldset>
  )
}
