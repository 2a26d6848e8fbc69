/**
 * All configured MCP servers. Enabled servers start in parallel and in the background;
 * a configuration change starts, stops or restarts only the servers it touches.
 */
import type { McpServerInfo } from '../../../src-preload/contract/dto'
import { waitAllReady } from '../../core/tools/ready-wait'
import type { McpServers, McpServersConfig } from '../../core/mcp-ports'
import { configFingerprint } from './config'
import { McpConnection, type ConnectionDeps } from './connection'

export class McpManager implements McpServers {
  private readonly connections = new Map<string, McpConnection>()
  private readonly disabled = new Map<string, McpConnection>()

  constructor(private readonly deps: ConnectionDeps) {}

  /** Applies a configuration; servers start without being waited for. */
  apply(config: McpServersConfig): void {
    for (const [name, conn] of this.connections) {
      const next = config[name]
      const same =
        next &&
        next.disabled !== true &&
        configFingerprint(next) === conn.configFingerprint &&
        (next.trustAnnotations === true) === conn.trusted &&
        next.timeoutMs === conn.config.timeoutMs &&
        next.maxTimeoutMs === conn.config.maxTimeoutMs
      if (!same) {
        this.connections.delete(name)
        void conn.stop()
      }
    }
    this.disabled.clear()
    for (const [name, c] of Object.entries(config)) {
      if (c.disabled === true) {
        this.disabled.set(name, new McpConnection(name, c, this.deps))
        continue
      }
      if (this.connections.has(name)) continue
      const conn = new McpConnection(name, c, this.deps)
      this.connections.set(name, conn)
      void conn.start()
    }
  }

  /** the enabled servers' connections */
  sources(): McpConnection[] {
    return [...this.connections.values()]
  }

  get(name: string): McpConnection | undefined {
    return this.connections.get(name)
  }

  /** Every configured server, enabled or not, in name order. */
  list(): McpServerInfo[] {
    return [...this.connections.values(), ...this.disabled.values()]
      .map((c) => c.info())
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  async restart(name: string): Promise<boolean> {
    const conn = this.connections.get(name)
    if (!conn) return false
    await conn.restart()
    return true
  }

  /** Waits until no server is starting, at most `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    // a timer we own: an AbortSignal.timeout nobody references may be collected unfired
    const bounded = new AbortController()
    const timer = setTimeout(() => bounded.abort(), timeoutMs)
    try {
      await waitAllReady([...this.connections.values()], bounded.signal)
    } finally {
      clearTimeout(timer)
    }
  }

  /** Stops every server (close, SIGTERM, SIGKILL for each process group), in parallel. */
  async shutdown(): Promise<void> {
    const all = [...this.connections.values()]
    this.connections.clear()
    await Promise.all(all.map((c) => c.stop()))
  }
}
