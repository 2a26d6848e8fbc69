/**
 * An MCP registry's servers as Cairn shows them before installing one (Settings › MCP
 * servers › "Add from registry…", `cairn mcp search|install`). Everything here comes from the
 * registry and is shown as text, never as markup.
 */

/** One value a server needs: an environment variable, a header, an argument. */
export interface RegistryInput {
  /** `env:NAME`, `header:NAME` or `arg:N` (the install's `values` are keyed by it) */
  id: string
  kind: 'env' | 'header' | 'argument'
  /** the variable's or header's name; an argument's name or hint */
  name: string
  description: string
  required: boolean
  /** a password, a token: typed hidden, never shown back */
  secret: boolean
  /** what it gets when the user gives nothing ('' for nothing) */
  default: string
  choices: string[]
}

/** One way to run a server the registry lists: a package Cairn runs, or a remote address. */
export interface RegistryInstallOption {
  /** `package:N` or `remote:N` */
  id: string
  kind: 'package' | 'remote'
  /** npm, pypi, oci, … for a package; the transport (streamable-http, sse) for a remote */
  type: string
  /** the package's identifier, or the remote's address */
  target: string
  version: string | null
  /** the program it runs and its arguments (a package), else null */
  command: string | null
  args: string[]
  /** the address it connects to (a remote), else null */
  url: string | null
  inputs: RegistryInput[]
  /** why Cairn will not install it this way; null: it can */
  refused: string | null
}

/** Who published a server: the registry verified its namespace (a GitHub account or a domain). */
export interface RegistryPublisher {
  /** the name's namespace, e.g. `io.github.alice` or `com.example` */
  namespace: string
  /** what that namespace stands for, e.g. `GitHub account alice` or `the domain example.com` */
  verifiedAs: string
  repository: string | null
  website: string | null
}

export interface RegistryServerSummary {
  /** the registry's name, e.g. `io.github.alice/weather` */
  name: string
  title: string | null
  description: string
  version: string
  publisher: RegistryPublisher
  /** the registry's status (active, deprecated, …); null when it gives none */
  status: string | null
  /** how it can run: `npm`, `pypi`, `oci`, `remote`, … */
  kinds: string[]
}

export interface RegistryServerView extends RegistryServerSummary {
  publishedAt: string | null
  options: RegistryInstallOption[]
  /** the name it gets in Cairn unless the user gives another */
  suggestedName: string
  /** a server of the suggested name is configured already */
  exists: boolean
}

export interface RegistrySearchResult {
  /** the registry's address (the setting `mcpRegistryUrl`) */
  registry: string
  servers: RegistryServerSummary[]
  /** entries the registry sent that were not valid, left out */
  leftOut: number
}
