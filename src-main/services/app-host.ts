/**
 * Everything a UI host (the Electron app, browser mode) runs, assembled in one place: the
 * services on the data directory, the MCP servers and built-in tools, running turns,
 * pending approvals, the router for requests and the hub for events.
 */
import type { Router } from '../ipc/router'
import type { EventHub } from './event-hub'
import type { SecretCodec } from '../adapters/settings/secrets'

export interface AppHostOptions {
  dataDir: string
  hostKind: 'electron' | 'web'
  version: string
  /** provider variables (CAIRN_BASE_URL …) are read from here (default: process.env) */
  env?: NodeJS.ProcessEnv
  /** `--mcp-config`: replaces the configured MCP servers for this run */
  mcpConfigFile?: string
  /** how API keys are stored (desktop: Electron's safeStorage) */
  secretsCodec?: SecretCodec
  /** the better-sqlite3 binary built for Electron */
  nativeBinding?: string
  onWarning?: (message: string) => void
  /** how long a pending approval waits with no renderer attached before it is denied (default 30 s) */
  orphanApprovalMs?: number
}

export interface AppHost {
  router: Router
  hub: EventHub
  /** stops running turns (partial text saved, tool calls answered), the MCP servers, the database */
  shutdown(): Promise<void>
}
