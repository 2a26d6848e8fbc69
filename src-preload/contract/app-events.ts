/** Events from main to the renderer. Main is trusted: events are not parsed. */
import type { ImportRun, McpServerInfo } from './dto'
import type { AgentEvent, ApprovalRequestEvent } from './events'
import type { VoiceEvent } from './voice'
import type { ModelDownload } from './local-models'

/**
 * An agent event as the renderer gets it: `seq` numbers the events of its turn from 0, so
 * that a renderer attaching in the middle of a turn can tell the events it already has
 * (from `chat.attach`) from new ones.
 */
export type SequencedAgentEvent = AgentEvent & { seq: number }

export interface EventPayloads {
  /** an agent event of a running turn (text and reasoning deltas coalesced, ≤ 60 per second) */
  agent: SequencedAgentEvent
  /** an MCP server's status changed */
  'mcp.status': McpServerInfo
  /** a server's resources or prompts changed (its list_changed, or a subscribed resource's update) */
  'mcp.listChanged': { server: string; what: 'resources' | 'prompts' }
  /** a session was created, changed or deleted (null: reload the list) */
  'sessions.changed': { sessionId: string | null; deleted?: boolean }
  /** voice input: partial text, final utterances (sent, queued, left in the composer), status, errors */
  voice: VoiceEvent
  /** a call from a tool's view (MCP Apps) waits for the user's approval, or no longer does */
  'mcp.viewApproval': { request: ApprovalRequestEvent } | { resolved: string }
  /** an import's progress or end (Settings › General › "Import chats…") */
  'imports.progress': ImportRun
  /** a model download's progress or end (Settings › Models) */
  'models.download': ModelDownload
}

export type EventName = keyof EventPayloads

export type AppEvent = { [E in EventName]: { event: E; payload: EventPayloads[E] } }[EventName]
