/**
 * Opening a session with one server, and what that found out: the process a stdio server
 * runs as (and where its command was looked up), the transport and the login a remote one
 * uses, and the protocol era it speaks (see open-session.ts), remembered for the next start.
 */
import type { Client, Transport } from '@modelcontextprotocol/client'
import type { HttpServerConfig, McpServerConfig, StdioServerConfig } from '../../core/mcp-ports'
import { isStdio } from '../../core/mcp-ports'
import { ExpectedError } from '../../core/errors'
import { cappedFetch } from './http-limits'
import { backgroundProvider, guardedFetch, needsLogin } from './oauth-connection'
import type { CairnOAuthProvider } from './oauth-provider'
import type { McpAuthStore } from './oauth-store'
import {
  closedDuringProbe,
  connectSse,
  connectStdio,
  connectStreamableHttp,
  eraOf,
  newClient,
  type Era,
  type HttpOptions,
} from './open-session'

/** A running stdio server as the launcher starts it. */
export interface StdioLaunch {
  transport: Transport & {
    stderrTail(): string
    readonly pid: number | undefined
    readonly exit: { code: number | null; signal: string | null } | null
    /** waits (at most `ms`) for the process to exit and its stderr to end */
    exited(ms: number): Promise<boolean>
  }
  resolvedCommand: string
  /** the folders the command was looked up in */
  searchPath: string[]
}

/** The command could not be started at all (not found, not executable); says where it looked. */
export class LaunchFailure extends ExpectedError<'unavailable'> {
  constructor(
    message: string,
    readonly searchPath: string[] | null,
  ) {
    super('unavailable', message)
    this.name = 'LaunchFailure'
  }
}

/** The server could not be started at all (command not found, not executable). */
export class LaunchError extends ExpectedError<'unavailable'> {
  constructor(message: string) {
    super('unavailable', message)
    this.name = 'LaunchError'
  }
}

/** What opening a session needs from the connection. */
export interface OpenerDeps {
  launchStdio(name: string, config: StdioServerConfig): Promise<StdioLaunch>
  clientVersion: string
  oauthStore?: McpAuthStore
  /** the settings' address of Cairn's client metadata document (null: register instead) */
  clientMetadataUrl?: () => string | null
}

export class SessionOpener {
  launch: StdioLaunch | null = null
  searchPath: string[] | null = null
  httpKind: 'streamable-http' | 'sse' = 'streamable-http'
  /** the background OAuth provider of a remote server with a login store */
  auth: CairnOAuthProvider | undefined
  /** the era the last start found (a 2025-era stdio server is not probed again) */
  private era: Era | undefined

  constructor(
    private readonly name: string,
    private readonly deps: OpenerDeps,
  ) {}

  /** A connected client; throws `LaunchError` when a stdio command cannot start at all. */
  open(config: McpServerConfig, timeout: number): Promise<Client> {
    return isStdio(config) ? this.openStdio(config, timeout) : this.openHttp(config, timeout)
  }

  private async launchStdio(config: StdioServerConfig): Promise<StdioLaunch> {
    try {
      this.launch = await this.deps.launchStdio(this.name, config)
      this.searchPath = this.launch.searchPath
      return this.launch
    } catch (e) {
      if (e instanceof LaunchFailure) this.searchPath = e.searchPath
      throw new LaunchError(e instanceof Error ? e.message : String(e))
    }
  }

  private async openStdio(config: StdioServerConfig, timeout: number): Promise<Client> {
    const launch = await this.launchStdio(config)
    const client = newClient(this.deps.clientVersion)
    try {
      await connectStdio(client, launch.transport, timeout, this.era)
    } catch (e) {
      if (!closedDuringProbe(e, launch.transport)) throw e
      // a server that exits on any request before `initialize`: start it again, no probe
      const again = await this.launchStdio(config)
      const legacy = newClient(this.deps.clientVersion)
      await connectStdio(legacy, again.transport, timeout, 'legacy')
      this.era = 'legacy'
      return legacy
    }
    this.era = eraOf(client)
    return client
  }

  private async openHttp(config: HttpServerConfig, timeout: number): Promise<Client> {
    const address = config.url
    this.auth = backgroundProvider(config, this.deps.oauthStore, this.deps.clientMetadataUrl?.())
    // every answer read is capped (http-limits.ts), the login's discovery included
    const capped = cappedFetch(address)
    const o: HttpOptions = {
      url: new URL(address),
      timeout,
      ...(config.headers ? { headers: config.headers } : {}),
      fetch: this.auth ? guardedFetch(address, this.auth, capped) : capped,
      ...(this.auth ? { provider: this.auth } : {}),
    }
    try {
      this.httpKind = 'streamable-http'
      const client = newClient(this.deps.clientVersion)
      await connectStreamableHttp(client, o)
      this.era = eraOf(client)
      return client
    } catch (first) {
      if (needsLogin(first, this.auth)) throw first
      // an older server speaks the legacy SSE transport only
      try {
        this.httpKind = 'sse'
        const legacy = newClient(this.deps.clientVersion, { legacyOnly: true })
        await connectSse(legacy, o)
        this.era = 'legacy'
        return legacy
      } catch {
        this.httpKind = 'streamable-http'
        throw first
      }
    }
  }
}
