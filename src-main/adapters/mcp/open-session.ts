/**
 * Opening a session with one MCP server on the SDK's client: which protocol revision it
 * speaks is found at connect time. Cairn speaks 2026-07-28 (`server/discover`, the
 * per-request `_meta` and headers) and falls back to the `initialize` handshake of
 * 2025-11-25, 2025-06-18 and 2025-03-26 for a server that does not.
 *
 * - Streamable HTTP probes with `server/discover` and falls back to `initialize`; a server
 *   that speaks only the legacy SSE transport is reached over that (2024-11-05 era only).
 * - stdio probes on the server's own process (Cairn's transport keeps it in its process
 *   group): a server that answers the probe with an error or not at all within a short
 *   time is a 2025-era one, and one that exits on the probe (some do, on any request before
 *   `initialize`) is started again and connected with `initialize` directly. The verdict is
 *   remembered for the next start of the same configuration.
 */
import {
  Client,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type FetchLike,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client'
import { UI_EXTENSION_ID, VIEW_MIME_TYPE } from '../../../src-preload/contract/mcp-apps'
import { ELICITATION_CAPABILITY } from './elicitation'
import { completeByDefault } from './result-type'

/** how long a stdio server has to answer `server/discover` before it counts as a 2025-era one */
export const STDIO_PROBE_MS = 5_000

/** what Cairn says it can do, in every era */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  elicitation: ELICITATION_CAPABILITY,
  // MCP Apps: tools may come with an interactive view, shown on their card
  extensions: { [UI_EXTENSION_ID]: { mimeTypes: [VIEW_MIME_TYPE] } },
}

export type Era = 'modern' | 'legacy'

/** A client that finds the server's era at connect time (`legacyOnly`: the 2025 handshake only). */
export function newClient(version: string, o: { legacyOnly?: boolean } = {}): Client {
  return new Client(
    { name: 'cairn', version },
    {
      capabilities: CLIENT_CAPABILITIES,
      ...(o.legacyOnly ? {} : { versionNegotiation: { mode: 'auto' } }),
      // Cairn reads lists page by page itself; the SDK's own walk stops here all the same
      listMaxPages: 50,
    },
  )
}

/** the era a started client landed on */
export function eraOf(client: Client): Era {
  return client.getProtocolEra() === 'modern' ? 'modern' : 'legacy'
}

/**
 * The probe ran on a stdio server that exited during it (it exits on unknown requests): the
 * negotiation failed (with a fallback to the 2025 handshake, that happens only when the
 * connection closed) and the server's process is gone.
 */
export function closedDuringProbe(e: unknown, transport: { readonly exit: unknown }): boolean {
  return (
    e instanceof SdkError &&
    e.code === SdkErrorCode.EraNegotiationFailed &&
    transport.exit !== null
  )
}

/**
 * Connects `client` over a started-on-demand stdio transport. `known` is what an earlier
 * start of the same configuration found: a legacy server is not probed again.
 */
export async function connectStdio(
  client: Client,
  transport: Transport,
  timeout: number,
  known: Era | undefined,
): Promise<void> {
  if (known === 'legacy') {
    client.setVersionNegotiation(undefined)
    await client.connect(completeByDefault(transport), { timeout })
    return
  }
  client.setVersionNegotiation({
    mode: 'auto',
    probe: { timeoutMs: Math.min(STDIO_PROBE_MS, timeout) },
  })
  await client.connect(completeByDefault(transport), { timeout })
}

export interface HttpOptions {
  url: URL
  headers?: Record<string, string>
  /** every request the transport (and its login) makes: capped, and guarded with a login */
  fetch: FetchLike
  /** the OAuth provider of a server with a login */
  provider?: OAuthClientProvider
  timeout: number
}

/** Connects over Streamable HTTP, probing the era. */
export async function connectStreamableHttp(client: Client, o: HttpOptions): Promise<void> {
  const transport = completeByDefault(
    new StreamableHTTPClientTransport(o.url, {
      ...(o.headers ? { requestInit: { headers: o.headers } } : {}),
      fetch: o.fetch,
      ...(o.provider ? { authProvider: o.provider } : {}),
      // a server that wants more scope is answered by a new login the user agrees to,
      // not by a browser opened from the middle of a call (see oauth-connection.ts)
      onInsufficientScope: 'throw',
    }),
  )
  await client.connect(transport, { timeout: o.timeout })
}

/** Connects over the legacy SSE transport (2024-11-05 servers): no era probe. */
export async function connectSse(client: Client, o: HttpOptions): Promise<void> {
  const transport = new SSEClientTransport(o.url, {
    ...(o.headers ? { requestInit: { headers: o.headers } } : {}),
    fetch: o.fetch,
    ...(o.provider ? { authProvider: o.provider } : {}),
  })
  await client.connect(transport, { timeout: o.timeout })
}

/**
 * On a 2026-07-28 session, change notifications come only on a `subscriptions/listen`
 * stream the client opens: it is opened for the lists the server says change, and its
 * notifications reach the same handlers as a 2025-era server's unsolicited ones.
 */
export async function listenForChanges(client: Client): Promise<void> {
  if (eraOf(client) !== 'modern') return
  const caps = client.getServerCapabilities()
  const filter = {
    ...(caps?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(caps?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(caps?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  }
  if (Object.keys(filter).length === 0) return
  // a server that cannot keep a stream open still works: its lists are read when asked
  await client.listen(filter).catch(() => {})
}
