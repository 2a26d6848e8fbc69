/**
 * Cairn's OAuth client ID metadata document: this repository publishes it
 * (docs/oauth/client-metadata.json, served from the repository's pages), and its address
 * is Cairn's client id with an authorization server that supports such documents, instead
 * of registering itself with every server. The settings' `mcp.clientMetadataUrl` overrides
 * the address (null: always register), and a server's own `oauth` entry overrides both.
 */
import type { OAuthClientConfig } from '../../core/mcp-ports'

export { CAIRN_CLIENT_METADATA_URL } from '../../core/mcp-ports'

/**
 * The client a login to a server uses: its own entry's, else the metadata document at
 * `defaultUrl` (when set); a server with a configured client id keeps that client.
 */
export function withClientMetadata(
  client: OAuthClientConfig | undefined,
  defaultUrl: string | null | undefined,
): OAuthClientConfig | undefined {
  if (!defaultUrl || client?.clientId || client?.clientMetadataUrl) return client
  return { ...client, clientMetadataUrl: defaultUrl }
}
