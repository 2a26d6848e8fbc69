/** The local servers Cairn looked for, which answered and with which models; one click uses one. */
import { useState, type JSX } from 'react'
import type { LocalServerStatus } from '../../../../src-preload/contract/app-dto'
import { endpointName, providerId, type NewProvider } from './provider-patch'
import { useLocalServers } from '../../state/provider-queries'

function ServerItem(props: {
  server: LocalServerStatus
  busy: boolean
  onUse: (p: NewProvider) => void
}): JSX.Element {
  const { server, busy, onUse } = props
  const [model, setModel] = useState(server.models[0] ?? '')
  // a server known only by its address (CAIRN_LOCAL_SERVERS) is named by its host
  const name = server.name === server.baseURL ? endpointName(server.baseURL) : server.name
  const selectId = `local-model-${providerId(server.baseURL)}`
  return (
    <li className={`onb-server${server.reachable ? ' found' : ''}`}>
      <div className="onb-server-head">
        <strong>{name}</strong> <code>{server.baseURL}</code>
      </div>
      {!server.reachable ? (
        <p className="meta">Not found: {server.error ?? 'no answer'}.</p>
      ) : server.models.length === 0 ? (
        <p className="meta">Running, but it serves no models yet: load or pull one first.</p>
      ) : (
        <div className="onb-row">
          <label htmlFor={selectId}>Model</label>
          <select id={selectId} value={model} onChange={(e) => setModel(e.target.value)}>
            {server.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="primary"
            disabled={busy || !model}
            onClick={() =>
              onUse({
                id: providerId(name),
                name,
                baseURL: server.baseURL,
                model,
              })
            }
          >
            Use {name}
          </button>
        </div>
      )}
    </li>
  )
}

export function LocalServers(props: {
  busy: boolean
  onUse: (p: NewProvider) => void
}): JSX.Element {
  const servers = useLocalServers(true)
  const found = servers.data?.servers.filter((s) => s.reachable).length ?? 0
  return (
    <section className="onb-part" aria-labelledby="onb-local">
      <h3 id="onb-local">Local servers on this machine</h3>
      {servers.isPending ? (
        <p className="meta" role="status">
          Looking for Ollama, LM Studio and llama.cpp…
        </p>
      ) : servers.isError ? (
        <p className="error" role="alert">
          Could not look for local servers: {servers.error.message}
        </p>
      ) : (
        <>
          <p className="meta" role="status">
            {found === 0
              ? 'None answered. Start one (e.g. ollama serve) and look again, or connect to an endpoint below.'
              : `${found} found.`}
          </p>
          <ul className="onb-servers">
            {servers.data.servers.map((s) => (
              <ServerItem key={s.baseURL} server={s} busy={props.busy} onUse={props.onUse} />
            ))}
          </ul>
        </>
      )}
      <button
        type="button"
        className="action"
        disabled={servers.isFetching}
        onClick={() => void servers.refetch()}
      >
        {servers.isFetching ? 'Looking…' : 'Look again'}
      </button>
    </section>
  )
}
