/**
 * "Log in" for a remote server that needs one (OAuth): the engine opens the browser at the
 * server's authorization address (the desktop app shows it first); the address is shown
 * here too, to open by hand if no browser came up. The server turns ready by itself once
 * the login is done.
 */
import { useState, type JSX } from 'react'
import type { McpServerInfo } from '../../../../src-preload/contract/dto'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'

export function McpLoginButton(props: { server: McpServerInfo }): JSX.Element {
  const { bridge } = usePlatform()
  const name = props.server.name
  const [busy, setBusy] = useState(false)
  const [address, setAddress] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const login = (): void => {
    setBusy(true)
    setError(null)
    call(bridge, 'mcp.login', { name })
      .then((r) => setAddress(r.authorizationUrl))
      .catch((e: unknown) => setError((e as Error).message))
      .finally(() => setBusy(false))
  }
  return (
    <span className="mcp-login" role="group" aria-label={`Log in to ${name}`}>
      <button type="button" disabled={busy} aria-label={`Log in to ${name}`} onClick={login}>
        Log in
      </button>
      {address ? (
        <span role="status" className="meta">
          Log in in the browser window that opened. If none did, open this address:{' '}
          <code className="mcp-login-url">{address}</code>
        </span>
      ) : null}
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : null}
    </span>
  )
}
