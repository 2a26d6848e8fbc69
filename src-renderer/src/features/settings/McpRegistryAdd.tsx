/**
 * "Add from registry…": servers of the MCP registry (the setting `mcpRegistryUrl`) found by
 * words, one reviewed (who published it, each way to run it with its exact command line
 * or address, the values it needs), and added switched off like any other server. All the
 * registry's words are shown as text.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent, type JSX } from 'react'
import type {
  RegistrySearchResult,
  RegistryServerSummary,
  RegistryServerView,
} from '../../../../src-preload/contract/mcp-registry'
import { usePlatform } from '../../state/context'
import { call, RequestError } from '../../state/queries'
import { setServers } from '../../state/mcp-servers'
import { TextField } from '../../ui/forms/Field'
import { McpRegistryReview } from './McpRegistryReview'

export function McpRegistryAdd(props: {
  registryUrl: string
  onAdded: (names: string[]) => void
}): JSX.Element {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<RegistrySearchResult | null>(null)
  const [review, setReview] = useState<RegistryServerView | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})

  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true)
    setError(null)
    setFieldErrors({})
    try {
      await work()
    } catch (e) {
      setError((e as Error).message)
      if (e instanceof RequestError && e.info.code === 'bad_request')
        setFieldErrors(e.info.details?.fields ?? {})
    } finally {
      setBusy(false)
    }
  }
  const search = (e: FormEvent): void => {
    e.preventDefault()
    if (!query.trim()) return setError('Type a word to look for.')
    void run(async () => setFound(await call(bridge, 'mcp.registrySearch', { query })))
  }
  const open = (s: RegistryServerSummary): void =>
    void run(async () => {
      const r = await call(bridge, 'mcp.registryServer', { name: s.name, version: s.version })
      setReview(r.server)
    })
  const install = (option: string, name: string, values: Record<string, string>): void =>
    void run(async () => {
      if (!review) return
      const r = await call(bridge, 'mcp.registryInstall', {
        registryName: review.name,
        version: review.version,
        option,
        name,
        values,
      })
      setServers(client, r.servers)
      setReview(null)
      props.onAdded([name])
    })

  if (review)
    return (
      <McpRegistryReview
        server={review}
        busy={busy}
        error={error}
        fieldErrors={fieldErrors}
        onInstall={install}
        onBack={() => {
          setReview(null)
          setError(null)
        }}
      />
    )
  return (
    <div className="mcp-registry">
      <form className="mcp-registry-search" onSubmit={search} role="search" noValidate>
        <TextField
          label="Search the MCP registry"
          hint={`Servers whose name has one of the words, from ${props.registryUrl}.`}
          value={query}
          onValue={(v) => {
            setQuery(v)
            setError(null)
          }}
          placeholder="weather, github, files…"
        />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            Search
          </button>
        </div>
      </form>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {found ? <Results found={found} busy={busy} onOpen={open} /> : null}
    </div>
  )
}

function Results(props: {
  found: RegistrySearchResult
  busy: boolean
  onOpen(s: RegistryServerSummary): void
}): JSX.Element {
  const { servers, leftOut } = props.found
  return (
    <section aria-label="Servers found" className="mcp-registry-results">
      {servers.length === 0 ? <p className="meta">No server of the registry matches.</p> : null}
      <ul className="mcp-review-list">
        {servers.map((s) => (
          <li key={s.name} aria-label={s.name}>
            <strong>{s.title ?? s.name}</strong> <span className="meta">{s.version}</span>
            {s.title ? <div className="meta mcp-registry-name">{s.name}</div> : null}
            {s.description ? <p>{s.description}</p> : null}
            <p className="meta">
              Published by {s.publisher.verifiedAs} · {s.kinds.join(', ') || 'nothing to run'}
              {s.status && s.status !== 'active' ? ` · ${s.status}` : ''}
            </p>
            <button
              type="button"
              className="action"
              disabled={props.busy}
              aria-label={`Review ${s.name}`}
              onClick={() => props.onOpen(s)}
            >
              Review…
            </button>
          </li>
        ))}
      </ul>
      {leftOut > 0 ? (
        <p className="meta">
          {leftOut} entr{leftOut === 1 ? 'y' : 'ies'} the registry sent could not be read and
          {leftOut === 1 ? ' is' : ' are'} left out.
        </p>
      ) : null}
    </section>
  )
}
