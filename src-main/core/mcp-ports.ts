/**
 * The MCP servers as the services see them: their configuration (the Claude Desktop
 * format plus Cairn's keys), the running servers, their resources and prompts, and OAuth
 * logins. `adapters/mcp/` implements these; the composition files hand them out (see
 * `service-ports.ts`).
 */
import type { ContentPart, McpCommandLine, McpServerInfo } from '../../src-preload/contract/dto'
import type {
  McpPrompt,
  McpPromptMessage,
  McpResource,
  McpResourceTemplate,
  ResourceRef,
} from '../../src-preload/contract/resources-and-prompts'
import type { ViewResourceMeta } from '../../src-preload/contract/mcp-apps'
import type { ExtensionReview } from '../../src-preload/contract/mcpb'
import type { ToolSource } from './tools/tool-source'

// ——— configuration ———

interface CommonServerConfig {
  disabled?: boolean
  /** believe this server's annotations (read-only hints); off by default, as the MCP spec advises */
  trustAnnotations?: boolean
  /** show its tools' interactive views (MCP Apps); off until the user allows them */
  allowViews?: boolean
  /** per-call timeout, reset by progress notifications (default 60 s) */
  timeoutMs?: number
  /** the longest a call may run, progress or not (default 10 min) */
  maxTimeoutMs?: number
}

export interface StdioServerConfig extends CommonServerConfig {
  command: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
  /**
   * the folder of `<dataDir>/extensions/` an installed extension (`.mcpb`) was unpacked
   * into: removed with the server; its sensitive settings are filled in at start
   */
  extension?: string
}

export interface HttpServerConfig extends CommonServerConfig {
  url: string
  headers?: Record<string, string>
  /** a client registered with the server's authorization server beforehand (all optional) */
  oauth?: OAuthClientConfig
}

export interface OAuthClientConfig {
  clientId?: string
  /** moved to the secrets store when the configuration is saved */
  clientSecret?: string
  scopes?: string[]
  /**
   * an https address where Cairn's client metadata document is published: used as the
   * client id with an authorization server that supports client ID metadata documents
   */
  clientMetadataUrl?: string
}

/**
 * Where this repository's OAuth client ID metadata document (docs/oauth/client-metadata.json)
 * is published: Cairn's client id where an authorization server supports such documents
 * (the settings' `mcp.clientMetadataUrl` by default). The document's `client_id` is this.
 */
export const CAIRN_CLIENT_METADATA_URL =
  'https://cairn-desktop.github.io/cairn/oauth/client-metadata.json'

export type McpServerConfig = StdioServerConfig | HttpServerConfig

export type McpServersConfig = Record<string, McpServerConfig>

export function isStdio(c: McpServerConfig): c is StdioServerConfig {
  return typeof (c as StdioServerConfig).command === 'string'
}

/** The environment variables a host runs with (what `process.env` holds). */
export type Environment = Readonly<Record<string, string | undefined>>

/**
 * The configuration language of MCP servers. `parse`, `parseText` and
 * `importClaudeDesktop` throw an ExpectedError `bad_request` (`McpConfigError`) that names
 * the server and the field that is wrong.
 */
export interface McpServerConfigs {
  /** one server's entry, checked */
  parse(name: string, raw: unknown): McpServerConfig
  /**
   * Servers from text a user pasted: `{"mcpServers": {...}}`, the bare map, or one server
   * object named by `name`.
   */
  parseText(text: string, name?: string): McpServersConfig
  /** the settings' `mcpServers`, skipping (with a warning) entries that are not valid */
  fromSettings(raw: Record<string, unknown>, warn: (message: string) => void): McpServersConfig
  /** where Claude Desktop keeps its configuration on this computer */
  claudeDesktopFile(env: Environment): string
  /** the servers of a Claude Desktop configuration, each disabled until the user reviewed it */
  importClaudeDesktop(file: string): McpServersConfig
  /** the command line (or URL) exactly as it will run, for review */
  describe(config: McpServerConfig): string
  /** a stdio server's full command line, as the user confirms it; null for a URL server */
  commandLine(config: McpServerConfig): McpCommandLine | null
  /** what "always allow" rules and confirmations are bound to: the parts that decide what runs */
  fingerprint(config: McpServerConfig): string
}

// ——— running servers ———

/** One configured, enabled server. */
export interface McpServerHandle {
  readonly config: McpServerConfig
  info(): McpServerInfo
  /** a login failed: the server shows "needs login" with this reason */
  noteLoginFailure(message: string): void
}

/**
 * All configured MCP servers. Enabled servers start in parallel and in the background; a
 * configuration change starts, stops or restarts only the servers it touches.
 */
export interface McpServers {
  /** applies a configuration; servers start without being waited for */
  apply(config: McpServersConfig): void
  /** an enabled server; undefined when it is unknown or disabled */
  get(name: string): McpServerHandle | undefined
  /** every configured server, enabled or not, in name order */
  list(): McpServerInfo[]
  /** false when the server is unknown or disabled */
  restart(name: string): Promise<boolean>
  /** waits until no server is starting, at most `timeoutMs` */
  settled(timeoutMs: number): Promise<void>
  /** the enabled servers, as tool sources */
  sources(): ToolSource[]
  shutdown(): Promise<void>
}

// ——— resources and prompts ———

/** a server's list of resources or of prompts changed */
export type ResourcesOrPromptsChange = { server: string; what: 'resources' | 'prompts' }

/** what a server could not list, in words */
export type ListError = { server: string; message: string }

/**
 * The resources and prompts of every ready MCP server (the composer's `@` and
 * `/server:prompt`). `read` and `prompt` throw an ExpectedError (`unavailable`) that says
 * which server failed and why.
 */
export interface McpResourcesAndPrompts {
  onChange(listener: (change: ResourcesOrPromptsChange) => void): () => void
  resources(): Promise<{
    resources: McpResource[]
    templates: McpResourceTemplate[]
    errors: ListError[]
  }>
  /** reads a resource (or a template filled with its values) into a message's parts */
  read(ref: ResourceRef, signal?: AbortSignal): Promise<ContentPart[]>
  prompts(): Promise<{ prompts: McpPrompt[]; errors: ListError[] }>
  /** reads a tool's view (an MCP Apps `ui://` resource): its HTML and what it declares */
  readView(server: string, uri: string, signal?: AbortSignal): Promise<ViewResource>
  prompt(server: string, name: string, args: Record<string, string>): Promise<McpPromptMessage[]>
}

/** A view's document as its server sent it (checked: its type, its size, its `_meta.ui`). */
export interface ViewResource {
  html: string
  meta: ViewResourceMeta
}

// ——— logins ———

/** OAuth logins to remote servers, and the client secrets kept with the API keys. */
export interface McpLogins {
  /**
   * Logs in to the server: `open` gets the authorization address (the user's browser is
   * sent there); resolves once the server's token is stored.
   */
  login(name: string, config: HttpServerConfig, open: (url: URL) => Promise<void>): Promise<void>
  /** forgets the server's tokens and registered client (a configured client's secret stays) */
  logout(serverUrl: string): void
  /** the settings entry to save: a configured client's secret moved to the secrets store */
  keepClientSecret(entry: Record<string, unknown>): Record<string, unknown>
  /** a removed server's login is forgotten, unless another configured server has its URL */
  forgetUnusedLogin(
    removed: Record<string, unknown> | undefined,
    remaining: Record<string, Record<string, unknown>>,
  ): void
}

// ——— extensions (MCPB bundles) ———

/** A bundle to open: its bytes as uploaded, or a file the host's dialog chose. */
export type ExtensionSource = { file: string; bytes: Uint8Array } | { path: string }

/** A setting's value: text, or one per line for a setting of several values. */
export type ExtensionValues = Record<string, string | string[]>

/**
 * Claude Desktop extensions (`.mcpb`): unpacked into `<dataDir>/extensions/`, checked and
 * shown for review, then installed as a stdio server (added switched off by the caller).
 * Throws an ExpectedError `bad_request` naming what is wrong with a bundle or a value.
 */
export interface McpExtensions {
  /** unpacks and checks a bundle; it waits, staged, for `install` or `discard` */
  open(source: ExtensionSource, configured: (name: string) => boolean): Promise<ExtensionReview>
  /**
   * moves a staged bundle to its own folder and gives the server's entry (with `extension`
   * naming that folder) and the sensitive values to keep in the secrets store
   */
  install(
    stageId: string,
    name: string,
    values: ExtensionValues,
  ): Promise<{ entry: StdioServerConfig; secretValues: Record<string, string> }>
  discard(stageId: string): Promise<void>
  /** removes an installed extension's folder (a server's `extension`) */
  remove(folder: string): Promise<void>
}
