/**
 * Adding servers: typed in a form, pasted as JSON in the Claude Desktop format, read from
 * Claude Desktop's own file, or found in the MCP registry. Every way ends in a review of what
 * will run, and adds the server switched off.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState, type JSX } from 'react'
import type { McpServerConfigDto, McpServerDraft } from '../../../../src-preload/contract/dto'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { Field } from '../../ui/forms/Field'
import { McpDraftReview } from './McpDraftReview'
import { McpRegistryAdd } from './McpRegistryAdd'
import { McpServerForm } from './McpServerForm'
import { setServers } from '../../state/mcp-servers'

type Mode = 'form' | 'json' | 'claude' | 'registry'
const modes: { id: Mode; label: string }[] = [
  { id: 'form', label: 'Fill in a form' },
  { id: 'json', label: 'Paste JSON' },
  { id: 'claude', label: 'Import from Claude Desktop' },
  { id: 'registry', label: 'Add from registry…' },
]

export function McpAddServer(props: {
  registryUrl: string
  onAdded: (names: string[]) => void
}): JSX.Element {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  const [mode, setMode] = useState<Mode>('form')
  const [review, setReview] = useState<{ drafts: McpServerDraft[]; source: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [text, setText] = useState('')
  const [jsonName, setJsonName] = useState('')

  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const read = (source: string, input: { text: string; name?: string }): Promise<void> =>
    run(async () => setReview({ drafts: (await call(bridge, 'mcp.parse', input)).servers, source }))
  const fromForm = (name: string, config: McpServerConfigDto): void =>
    void read('the form', { text: JSON.stringify({ mcpServers: { [name]: config } }) })
  const fromJson = (): void =>
    void read('the pasted JSON', { text, ...(jsonName.trim() ? { name: jsonName.trim() } : {}) })
  const fromClaude = (): void =>
    void run(async () => {
      const r = await call(bridge, 'mcp.importClaude', {})
      if (r.servers.length === 0) throw new Error(`${r.file} lists no servers.`)
      setReview({ drafts: r.servers, source: r.file })
    })
  const add = (): void =>
    void run(async () => {
      if (!review) return
      const added: string[] = []
      for (const d of review.drafts) {
        const r = await call(bridge, 'mcp.add', { name: d.name, config: d.config })
        setServers(client, r.servers)
        added.push(d.name)
      }
      setReview(null)
      setText('')
      setJsonName('')
      props.onAdded(added)
    })

  if (review)
    return (
      <McpDraftReview
        drafts={review.drafts}
        source={review.source}
        busy={busy}
        error={error}
        onAdd={add}
        onCancel={() => {
          setReview(null)
          setError(null)
        }}
      />
    )
  return (
    <div className="mcp-add">
      <div className="mcp-modes" role="group" aria-label="How to add">
        {modes.map((m) => (
          <button
            key={m.id}
            type="button"
            className="action"
            aria-pressed={mode === m.id}
            onClick={() => {
              setMode(m.id)
              setError(null)
            }}
          >
            {m.label}
          </button>
        ))}
      </div>
      {mode === 'form' ? <McpServerForm busy={busy} onReview={fromForm} /> : null}
      {mode === 'json' ? (
        <JsonPaste
          text={text}
          setText={(t) => {
            setText(t)
            setError(null)
          }}
          name={jsonName}
          setName={setJsonName}
          error={error}
          busy={busy}
          onReview={fromJson}
        />
      ) : null}
      {mode === 'claude' ? <ClaudeImport busy={busy} onRead={fromClaude} /> : null}
      {mode === 'registry' ? (
        <McpRegistryAdd registryUrl={props.registryUrl} onAdded={props.onAdded} />
      ) : null}
      {error && mode !== 'json' && mode !== 'registry' ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** servers pasted as JSON, in the Claude Desktop format or as one server object and a name */
function JsonPaste(props: {
  text: string
  setText(text: string): void
  name: string
  setName(name: string): void
  error: string | null
  busy: boolean
  onReview(): void
}): JSX.Element {
  return (
    <div className="mcp-json">
      <Field
        label="Claude Desktop JSON"
        error={props.error}
        hint='{"mcpServers": {"name": {"command": "…", "args": […]}}}, or {"name": {…}}, or one server object with a name below.'
      >
        {(ids) => (
          <textarea
            {...ids}
            rows={8}
            value={props.text}
            spellCheck={false}
            onChange={(e) => props.setText(e.target.value)}
          />
        )}
      </Field>
      <Field label="Name (for a single server object)">
        {(ids) => (
          <input {...ids} value={props.name} onChange={(e) => props.setName(e.target.value)} />
        )}
      </Field>
      <div className="form-actions">
        <button type="button" className="primary" disabled={props.busy} onClick={props.onReview}>
          Review
        </button>
      </div>
    </div>
  )
}

function ClaudeImport(props: { busy: boolean; onRead(): void }): JSX.Element {
  return (
    <div className="mcp-claude">
      <p className="meta">
        Reads Claude Desktop&apos;s configuration file (claude_desktop_config.json) from its usual
        place and shows its servers for review. Nothing is added until you say so.
      </p>
      <button type="button" className="primary" disabled={props.busy} onClick={props.onRead}>
        Read Claude Desktop&apos;s servers
      </button>
    </div>
  )
}
