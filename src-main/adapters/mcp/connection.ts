/**
 * One MCP server: connects (stdio through our process-group transport, or Streamable HTTP
 * falling back to SSE), keeps its tool list fresh, runs calls with timeouts and
 * cancellation, restarts it with backoff when it crashes, and reports its status.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpServerInfo } from '../../../src-preload/contract/dto'
import type { ToolCallScope, ToolOutcome } from '../../core/ports'
import type { SourceStatus, SourceTool, ToolSource } from '../../core/tools/tool-source'
import { RESTART_TRIES, restartDelayMs } from './backoff'
import {
  configFingerprint,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_CALL_TIMEOUT_MS,
  commandLineOf,
  describeServer,
} from './config'
import { isStdio, type McpServerConfig, type StdioServerConfig } from '../../core/mcp-ports'
import { CallTimer, SDK_NO_TIMEOUT_MS } from './call-timer'
import { capResult, toContentParts } from './content'
import { explainCallError, explainStartError, isTimeout, lastLines } from './connection-errors'
import {
  backgroundProvider,
  guardedFetch,
  loginMessage,
  needsLogin,
  scopeRefusal,
  scopeRefusedMessage,
} from './oauth-connection'
import type { CairnOAuthProvider } from './oauth-provider'
import type { McpAuthStore } from './oauth-store'
import { cappedFetch } from './http-limits'
import { ELICITATION_CAPABILITY, installElicitation, RunningCalls } from './elicitation'

/** pages of `tools/list` read at most: a server that pages forever stops here */
export const MAX_TOOL_PAGES = 50
/** tools of one server given to the model unless the settings say otherwise */
export const DEFAULT_MAX_TOOLS_PER_SERVER = 100
/** how long a failed start waits for the process's exit code and last stderr */
const EXIT_WAIT_MS = 1000

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
export class LaunchFailure extends Error {
  constructor(
    message: string,
    readonly searchPath: string[] | null,
  ) {
    super(message)
  }
}

export interface ConnectionDeps {
  /** resolves the command and builds the transport; throws an Error that names the command and the directories searched */
  launchStdio(name: string, config: StdioServerConfig): Promise<StdioLaunch>
  clientVersion: string
  onChange?: (info: McpServerInfo) => void
  /** how long initialize may take (default 30 s) */
  connectTimeoutMs?: number
  /** a server that stayed up this long gets its restart tries back (default 60 s) */
  stableAfterMs?: number
  restartBaseMs?: number
  /** tools of one server kept (default 100; the settings' `limits.maxToolsPerServer`) */
  maxToolsPerServer?: () => number
  /** told when a server offers more than is kept */
  onWarning?: (message: string) => void
  /** told of each new session with a server (resources and prompts add their handlers) */
  onConnected?: (server: string, client: Client) => void
  /** where remote servers' OAuth tokens are kept; without it no login is attempted */
  oauthStore?: McpAuthStore
}

export class McpConnection implements ToolSource {
  readonly configFingerprint: string
  private state: SourceStatus = 'stopped'
  private lastError: string | null = null
  private client: Client | null = null
  private launch: StdioLaunch | null = null
  private searchPath: string[] | null = null
  private httpKind: 'streamable-http' | 'sse' = 'streamable-http'
  private toolList: SourceTool[] = []
  /** what was left out of the tool list, shown with the server while it is ready */
  private toolNotice: string | null = null
  private restarts = 0
  private tries = 0
  private readyAt = 0
  private restartTimer: NodeJS.Timeout | null = null
  private generation = 0
  private waiters = new Set<() => void>()
  private auth: CairnOAuthProvider | undefined
  private readonly running = new RunningCalls()

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.configFingerprint = configFingerprint(config)
  }

  get trusted(): boolean {
    return this.config.trustAnnotations === true
  }

  status(): SourceStatus {
    return this.state
  }

  tools(): SourceTool[] {
    return this.state === 'ready' ? this.toolList : []
  }

  /** the session with the server while it is ready (resources and prompts use it) */
  readyClient(): Client | null {
    return this.state === 'ready' ? this.client : null
  }

  info(): McpServerInfo {
    return {
      name: this.name,
      state: this.state,
      error: this.lastError,
      transport: isStdio(this.config) ? 'stdio' : this.httpKind,
      command: describeServer(this.config),
      resolvedCommand: isStdio(this.config)
        ? (this.launch?.resolvedCommand ?? null)
        : this.config.url,
      enabled: this.config.disabled !== true,
      trustAnnotations: this.trusted,
      tools: this.toolList.map((t) => ({
        name: t.name,
        description: t.description,
        readOnly: t.annotations.readOnlyHint === true,
      })),
      stderrTail: this.launch?.transport.stderrTail() ?? '',
      restarts: this.restarts,
      pid: this.launch?.transport.pid ?? null,
      searchPath: this.searchPath,
      commandLine: commandLineOf(this.config),
    }
  }

  /** Starts connecting; resolves when the server is ready or has failed. */
  start(): Promise<void> {
    this.tries = 0
    this.restarts = 0
    return this.connect()
  }

  /** Stops and starts again, with fresh restart tries. */
  async restart(): Promise<void> {
    await this.stop()
    await this.start()
  }

  async stop(): Promise<void> {
    this.generation++
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.restartTimer = null
    const client = this.client
    this.client = null
    this.setState('stopped', this.lastError)
    if (client) await client.close().catch(() => {})
    this.notifyWaiters()
  }

  whenReady(signal: AbortSignal): Promise<boolean> {
    if (this.state !== 'starting') return Promise.resolve(this.state === 'ready')
    return new Promise((resolve) => {
      const done = (): void => {
        this.waiters.delete(done)
        signal.removeEventListener('abort', done)
        resolve(this.state === 'ready')
      }
      this.waiters.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallScope,
  ): Promise<ToolOutcome> {
    const client = this.client
    if (!client || this.state !== 'ready')
      throw new Error(`the server "${this.name}" is not running (${this.state})`)
    const timeout = this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
    const maxTotal = Math.max(timeout, this.config.maxTimeoutMs ?? DEFAULT_MAX_CALL_TIMEOUT_MS)
    // progress restarts the limit (up to maxTotal); a question to the user pauses it
    const timer = new CallTimer(timeout, maxTotal, ctx.signal)
    const done = this.running.add(ctx, timer)
    if (this.auth) this.auth.refusedScope = null
    try {
      const result = await client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
        signal: timer.signal,
        timeout: SDK_NO_TIMEOUT_MS,
        onprogress: (p) => {
          timer.reset()
          ctx.onProgress?.(p)
        },
      })
      return {
        ...capResult(
          toContentParts(result.content as { type: string }[]),
          tool,
          result.structuredContent,
        ),
        ...(result.isError ? { isError: true } : {}),
      }
    } catch (e) {
      // refused for a scope the login already asked for: this call fails, the server stays
      const refused = scopeRefusal(e, this.auth)
      if (refused) throw new Error(scopeRefusedMessage(this.name, refused))
      if (needsLogin(e, this.auth)) throw new Error(this.toNeedsLogin())
      throw new Error(
        explainCallError(e, {
          server: this.name,
          tool,
          timeout,
          config: this.config,
          launch: this.launch,
        }),
      )
    } finally {
      done()
      timer.dispose()
    }
  }

  /** A login that was tried did not succeed: the server still needs one, and says why. */
  noteLoginFailure(message: string): void {
    if (this.state === 'needs-login') this.setState('needs-login', message)
  }

  /** A login is needed (none yet, or the token was revoked): stop and say so; no restarts. */
  private toNeedsLogin(): string {
    const message = loginMessage(this.name, this.auth?.pendingScope())
    const client = this.client
    this.client = null
    this.generation++
    if (client) void client.close().catch(() => {})
    this.setState('needs-login', message)
    this.notifyWaiters()
    return message
  }

  private setState(state: SourceStatus, error: string | null): void {
    this.state = state
    this.lastError = error
    this.deps.onChange?.(this.info())
  }

  private notifyWaiters(): void {
    for (const w of [...this.waiters]) w()
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation
    // a restart keeps saying what went wrong last, until the server is ready again
    this.setState('starting', this.lastError)
    try {
      const client = await this.open()
      if (gen !== this.generation) {
        await client.close().catch(() => {})
        return
      }
      this.client = client
      client.onclose = () => this.onClosed(gen)
      this.deps.onConnected?.(this.name, client)
      installElicitation(client, this.name, this.running)
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        void this.refreshTools(client).catch((e: unknown) =>
          this.deps.onChange?.({ ...this.info(), error: String(e) }),
        )
      })
      // the whole start (listing included) is bounded by a timer we own: a server that
      // pages through tools/list without end is cut off like one that does not answer
      const limit = this.deps.connectTimeoutMs ?? 30_000
      const deadline = new AbortController()
      const timer = setTimeout(
        () => deadline.abort(new McpError(ErrorCode.RequestTimeout, 'tools/list took too long')),
        limit,
      )
      try {
        await this.refreshTools(client, deadline.signal)
      } finally {
        clearTimeout(timer)
      }
      if (gen !== this.generation) return
      this.readyAt = Date.now()
      this.setState('ready', this.toolNotice)
    } catch (e) {
      if (gen !== this.generation) return
      this.client = null
      if (e instanceof LaunchError) {
        // a command that cannot be found will not appear by trying again
        this.setState('error', e.message)
        return
      }
      const refused = scopeRefusal(e, this.auth)
      if (refused) {
        // neither a login nor a restart gets the server a scope it refuses after a login
        this.setState('error', scopeRefusedMessage(this.name, refused))
        return
      }
      if (needsLogin(e, this.auth)) {
        this.toNeedsLogin()
        return
      }
      // a process that died during the handshake: its exit code and last words explain it
      // (one that did not answer in time is explained by that, whatever it did after)
      const transport = isStdio(this.config) ? this.launch?.transport : undefined
      if (transport && !transport.exit && !isTimeout(e)) await transport.exited(EXIT_WAIT_MS)
      if (gen !== this.generation) return
      this.setState(
        'error',
        explainStartError(e, {
          config: this.config,
          launch: this.launch,
          timeoutMs: this.deps.connectTimeoutMs ?? 30_000,
        }),
      )
      this.scheduleRestart(gen)
    } finally {
      if (gen === this.generation) this.notifyWaiters()
    }
  }

  private async open(): Promise<Client> {
    const timeout = this.deps.connectTimeoutMs ?? 30_000
    const client = new Client(
      { name: 'cairn', version: this.deps.clientVersion },
      { capabilities: { elicitation: ELICITATION_CAPABILITY } },
    )
    if (isStdio(this.config)) {
      try {
        this.launch = await this.deps.launchStdio(this.name, this.config)
        this.searchPath = this.launch.searchPath
      } catch (e) {
        if (e instanceof LaunchFailure) this.searchPath = e.searchPath
        throw new LaunchError(e instanceof Error ? e.message : String(e))
      }
      await client.connect(this.launch.transport, { timeout })
      return client
    }
    const url = new URL(this.config.url)
    this.auth = backgroundProvider(this.config, this.deps.oauthStore)
    // every answer read is capped (http-limits.ts), the login's discovery included
    const capped = cappedFetch(this.config.url)
    const authProvider = this.auth
      ? { authProvider: this.auth, fetch: guardedFetch(this.config.url, this.auth, capped) }
      : { fetch: capped }
    const requestInit = this.config.headers ? { headers: this.config.headers } : undefined
    try {
      this.httpKind = 'streamable-http'
      await client.connect(
        new StreamableHTTPClientTransport(url, {
          ...(requestInit ? { requestInit } : {}),
          ...authProvider,
        }),
        { timeout },
      )
      return client
    } catch (first) {
      if (needsLogin(first, this.auth)) throw first
      // an older server speaks the legacy SSE transport only
      const legacy = new Client(
        { name: 'cairn', version: this.deps.clientVersion },
        { capabilities: { elicitation: ELICITATION_CAPABILITY } },
      )
      try {
        this.httpKind = 'sse'
        await legacy.connect(
          new SSEClientTransport(url, { ...(requestInit ? { requestInit } : {}), ...authProvider }),
          {
            timeout,
          },
        )
        return legacy
      } catch {
        this.httpKind = 'streamable-http'
        throw first
      }
    }
  }

  private async refreshTools(client: Client, signal?: AbortSignal): Promise<void> {
    const tools: SourceTool[] = []
    const max = Math.max(0, this.deps.maxToolsPerServer?.() ?? DEFAULT_MAX_TOOLS_PER_SERVER)
    let offered = 0
    let pages = 0
    let cursor: string | undefined
    do {
      if (pages++ >= MAX_TOOL_PAGES) break
      const page = await client.listTools(cursor ? { cursor } : undefined, signal ? { signal } : {})
      for (const t of page.tools) {
        if (++offered > max) continue
        tools.push({
          name: t.name,
          description: t.description ?? t.annotations?.title ?? '',
          inputSchema: t.inputSchema as Record<string, unknown>,
          ...(t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {}),
          annotations: {
            ...(t.annotations?.title !== undefined ? { title: t.annotations.title } : {}),
            ...(t.annotations?.readOnlyHint !== undefined
              ? { readOnlyHint: t.annotations.readOnlyHint }
              : {}),
            ...(t.annotations?.destructiveHint !== undefined
              ? { destructiveHint: t.annotations.destructiveHint }
              : {}),
            ...(t.annotations?.idempotentHint !== undefined
              ? { idempotentHint: t.annotations.idempotentHint }
              : {}),
            ...(t.annotations?.openWorldHint !== undefined
              ? { openWorldHint: t.annotations.openWorldHint }
              : {}),
          },
        })
      }
      cursor = page.nextCursor
    } while (cursor && offered <= max)
    this.toolList = tools
    const more = cursor ? ' or more' : ''
    this.toolNotice =
      offered > max
        ? `The server "${this.name}" offers ${offered}${more} tools; only the first ${max} are given to the model (the limit of tools per server is in the settings).`
        : cursor
          ? `The server "${this.name}" listed its tools over more than ${MAX_TOOL_PAGES} pages; only those pages are used.`
          : null
    if (this.toolNotice) this.deps.onWarning?.(this.toolNotice)
    if (this.state === 'ready') this.setState('ready', this.toolNotice)
  }

  private onClosed(gen: number): void {
    if (gen !== this.generation || this.state === 'stopped') return
    this.client = null
    const exit = this.launch?.transport.exit
    const how = exit
      ? exit.signal
        ? ` (killed by ${exit.signal})`
        : ` (exit code ${exit.code})`
      : ''
    const tail = lastLines(this.launch?.transport.stderrTail() ?? '', 3)
    this.setState(
      'error',
      `the server stopped unexpectedly${how}${tail ? `; its last output: ${tail}` : ''}`,
    )
    if (Date.now() - this.readyAt >= (this.deps.stableAfterMs ?? 60_000)) this.tries = 0
    this.scheduleRestart(gen)
  }

  private scheduleRestart(gen: number): void {
    if (this.tries >= RESTART_TRIES) {
      this.setState(
        'error',
        `${this.lastError ?? 'it failed'}; gave up after ${RESTART_TRIES} restarts (restart it by hand once fixed)`,
      )
      return
    }
    this.tries++
    const delay = restartDelayMs(this.tries, this.deps.restartBaseMs ?? 1000)
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      if (gen !== this.generation) return
      this.restarts++
      void this.connect()
    }, delay)
    this.restartTimer.unref()
  }
}

/** The server could not be started at all (command not found, not executable). */
class LaunchError extends Error {}
