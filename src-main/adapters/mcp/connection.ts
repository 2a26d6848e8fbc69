/**
 * One MCP server: connects (stdio through our process-group transport, or Streamable HTTP
 * falling back to SSE; the protocol revision found at connect time, see open-session.ts),
 * keeps its tool list fresh, runs calls with timeouts and cancellation, restarts it with
 * backoff when it crashes, and reports its status.
 */
import type { Client, Tool } from '@modelcontextprotocol/client'
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client'
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
import {
  isStdio,
  type HttpServerConfig,
  type McpServerConfig,
  type StdioServerConfig,
} from '../../core/mcp-ports'
import { CallTimer, SDK_NO_TIMEOUT_MS } from './call-timer'
import { toOutcome } from './content'
import { explainCallError, explainStartError, isTimeout, lastLines } from './connection-errors'
import { loginMessage, needsLogin, scopeRefusal, scopeRefusedMessage } from './oauth-connection'
import type { CairnOAuthProvider } from './oauth-provider'
import type { McpAuthStore } from './oauth-store'
import { installElicitation, RunningCalls } from './elicitation'
import { eraOf, listenForChanges } from './open-session'
import { LaunchError, SessionOpener, type StdioLaunch } from './session-opener'
import { stepUpLogin, StepUpNeeded, stepUpScope } from './step-up'
import { DEFAULT_MAX_TOOLS_PER_SERVER, readToolList, refusedNotice } from './tool-list'

export { DEFAULT_MAX_TOOLS_PER_SERVER, MAX_TOOL_PAGES } from './tool-list'
export { LaunchFailure, type StdioLaunch } from './session-opener'

/** how long a failed start waits for the process's exit code and last stderr */
const EXIT_WAIT_MS = 1000

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
  /** the settings' address of Cairn's client metadata document (null: register instead) */
  clientMetadataUrl?: () => string | null
}

export class McpConnection implements ToolSource {
  readonly configFingerprint: string
  private state: SourceStatus = 'stopped'
  private lastError: string | null = null
  private client: Client | null = null
  private toolList: SourceTool[] = []
  /** the tools' definitions as the server sent them (handed to the SDK with each call) */
  private definitions = new Map<string, Tool>()
  /** what was left out of the tool list, shown with the server while it is ready */
  private toolNotice: string | null = null
  private restarts = 0
  private tries = 0
  private readyAt = 0
  private restartTimer: NodeJS.Timeout | null = null
  private generation = 0
  private waiters = new Set<() => void>()
  private readonly running = new RunningCalls()
  /** how the session is opened, and what that found (the process, the login, the era) */
  private readonly opener: SessionOpener

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.configFingerprint = configFingerprint(config)
    this.opener = new SessionOpener(name, deps)
  }

  private get launch(): StdioLaunch | null {
    return this.opener.launch
  }

  private get auth(): CairnOAuthProvider | undefined {
    return this.opener.auth
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
      transport: isStdio(this.config) ? 'stdio' : this.opener.httpKind,
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
      searchPath: this.opener.searchPath,
      commandLine: commandLineOf(this.config),
      protocolVersion:
        this.state === 'ready' ? (this.client?.getNegotiatedProtocolVersion() ?? null) : null,
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
    try {
      return await this.callOnce(tool, args, ctx)
    } catch (e) {
      if (!(e instanceof StepUpNeeded)) throw e
      // the server wants a permission the login did not ask for: ask to log in again, retry
      const config = this.config as HttpServerConfig
      const loggedIn = this.deps.oauthStore
        ? await stepUpLogin({
            server: this.name,
            config,
            store: this.deps.oauthStore,
            clientVersion: this.deps.clientVersion,
            clientMetadataUrl: this.deps.clientMetadataUrl?.() ?? null,
            scope: e.scope,
            tool,
            ctx,
          })
        : false
      if (!loggedIn) throw new Error(e.message)
      return this.callOnce(tool, args, ctx).catch((again: unknown) => {
        throw again instanceof StepUpNeeded ? new Error(again.message) : again
      })
    }
  }

  private async callOnce(
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
      const definition = this.definitions.get(tool)
      const result = await client.callTool(
        { name: tool, arguments: args },
        {
          signal: timer.signal,
          timeout: SDK_NO_TIMEOUT_MS,
          onprogress: (p) => {
            timer.reset()
            ctx.onProgress?.(p)
          },
          ...(definition ? { toolDefinition: definition } : {}),
        },
      )
      return toOutcome(result, tool)
    } catch (e) {
      // refused for a scope the login already asked for: this call fails, the server stays
      const refused = scopeRefusal(e, this.auth)
      if (refused) throw new Error(scopeRefusedMessage(this.name, refused))
      const wanted = this.auth ? stepUpScope(e) : null
      if (wanted !== null) throw new StepUpNeeded(this.name, wanted)
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
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        void this.refreshTools(client).catch((e: unknown) =>
          this.deps.onChange?.({ ...this.info(), error: String(e) }),
        )
      })
      // the whole start (listing included) is bounded by a timer we own: a server that
      // pages through tools/list without end is cut off like one that does not answer
      const limit = this.deps.connectTimeoutMs ?? 30_000
      const deadline = new AbortController()
      const timer = setTimeout(
        () =>
          deadline.abort(
            new SdkError(SdkErrorCode.RequestTimeout, 'tools/list took too long', {
              timeout: limit,
            }),
          ),
        limit,
      )
      try {
        await this.refreshTools(client, deadline.signal)
      } finally {
        clearTimeout(timer)
      }
      if (gen !== this.generation) return
      await listenForChanges(client)
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

  private open(): Promise<Client> {
    return this.opener.open(this.config, this.deps.connectTimeoutMs ?? 30_000)
  }

  private async refreshTools(client: Client, signal?: AbortSignal): Promise<void> {
    const list = await readToolList(client, this.name, {
      max: Math.max(0, this.deps.maxToolsPerServer?.() ?? DEFAULT_MAX_TOOLS_PER_SERVER),
      // a 2026-07-28 session over HTTP sends designated arguments as headers
      checkHeaders: !isStdio(this.config) && eraOf(client) === 'modern',
      ...(signal ? { signal } : {}),
    })
    this.toolList = list.tools
    this.definitions = list.definitions
    const refused = refusedNotice(this.name, list.refused)
    this.toolNotice = [list.notice, refused].filter(Boolean).join(' ') || null
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
