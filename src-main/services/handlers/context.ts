import type { AppServices } from '../app-services'
import type { ApprovalBroker } from '../approvals'
import type { EventHub } from '../event-hub'
import type { ToolRuntime } from '../tool-runtime'
import type { TurnManager } from '../turn-manager'

/** What the route handlers work with. */
export interface HandlerContext {
  app: AppServices
  tools: ToolRuntime
  turns: TurnManager
  approvals: ApprovalBroker
  hub: EventHub
  env: NodeJS.ProcessEnv
  hostKind: 'electron' | 'web'
  version: string
  /** MCP servers come from `--mcp-config` for this run: the settings' servers are not used */
  mcpOverride: boolean
}
