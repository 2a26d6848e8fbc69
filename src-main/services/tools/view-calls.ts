/**
 * A tool call from a tool's view (MCP Apps `tools/call`): a third party asks, so the call
 * goes through what a model's call goes through. The tool must be one of the view's own
 * server's, offered in the session (its assistant's tools); its arguments are checked
 * against its schema; the session's permission policy and "always allow" rules decide, and
 * else the user is asked in the approval dialog, which says the call comes from the view.
 * A view has at most a few calls under way at once.
 */
import { randomUUID } from 'node:crypto'
import type { ViewCallResult } from '../../../src-preload/contract/mcp-apps'
import type { ApprovalRequestEvent } from '../../../src-preload/contract/events'
import { PermissionGate } from '../../core/agent/permissions'
import { checkToolArguments } from '../../core/agent/tool-args'
import { ExpectedError } from '../../core/errors'
import type { Approver, ToolDescriptor } from '../../core/ports'
import { AssistantToolHost } from '../../core/tools/assistant-filter'
import type { ToolRuntime } from '../../core/service-ports'
import { assistantPolicy } from '../assistants/assistant-setup'
import type { AppServices } from '../host/app-services'
import type { EventHub } from '../host/event-hub'

/** calls under way from one server's views in one session, at most */
export const MAX_VIEW_CALLS_IN_FLIGHT = 3
/** the longest a view's call may wait and run */
const VIEW_CALL_TIMEOUT_MS = 10 * 60_000

export interface ViewCallInput {
  sessionId: string
  server: string
  tool: string
  arguments: Record<string, unknown>
}

export interface ViewCallDeps {
  app: AppServices
  tools: ToolRuntime
  approver: Approver
  hub: EventHub
}

const inFlight = new Map<string, number>()

/** the tool of `server` named `tool` that the session's assistant offers, or not found */
async function findTool(
  d: ViewCallDeps,
  input: ViewCallInput,
): Promise<{
  tool: ToolDescriptor
  host: AssistantToolHost
  policy: ReturnType<typeof assistantPolicy>
}> {
  const session = d.app.store.getSession(input.sessionId)
  if (!session) throw new ExpectedError('not_found', 'The chat of this view no longer exists.')
  const assistant = d.app.assistants.forSession(session.id).assistant
  const host = new AssistantToolHost(d.tools.hostFor(session), assistant.tools)
  const tool = (await host.listTools()).find(
    (t) => t.server === input.server && t.tool === input.tool,
  )
  if (!tool) {
    throw new ExpectedError(
      'not_found',
      `The view of "${input.server}" asked for the tool ${input.tool}, which its server does not offer in this chat.`,
    )
  }
  return { tool, host, policy: assistantPolicy(assistant, d.app.settings.get(), undefined) }
}

/** asks the gate; the approval dialog (when it asks) hears of it through the hub */
async function decide(
  d: ViewCallDeps,
  gate: PermissionGate,
  tool: ToolDescriptor,
  args: Record<string, unknown>,
  input: ViewCallInput,
  signal: AbortSignal,
): Promise<void> {
  const requestId = randomUUID()
  let asked = false
  const decision = await gate.decide(tool, args, signal, (): ApprovalRequestEvent => {
    asked = true
    const request: ApprovalRequestEvent = {
      type: 'permission_request',
      sessionId: input.sessionId,
      turnId: `view:${requestId}`,
      at: Date.now(),
      requestId,
      toolCallId: `view:${requestId}`,
      name: tool.name,
      server: tool.server,
      tool: tool.tool,
      description: tool.description,
      arguments: args,
      annotations: tool.annotations,
      trusted: tool.trusted,
      fromView: true,
    }
    d.hub.publish({ event: 'mcp.viewApproval', payload: { request } })
    return request
  })
  if (asked) d.hub.publish({ event: 'mcp.viewApproval', payload: { resolved: requestId } })
  if (decision.decision === 'deny') {
    throw new ExpectedError(
      'forbidden',
      decision.by === 'user'
        ? `You denied the call of ${tool.tool} from the view of "${tool.server}".`
        : `The call of ${tool.tool} from the view of "${tool.server}" is denied by the permission policy.`,
    )
  }
}

/** Runs one call from a view, as a model's call would run; the tool's result. */
export async function callFromView(d: ViewCallDeps, input: ViewCallInput): Promise<ViewCallResult> {
  const key = `${input.sessionId}\u0000${input.server}`
  const running = inFlight.get(key) ?? 0
  if (running >= MAX_VIEW_CALLS_IN_FLIGHT) {
    throw new ExpectedError(
      'conflict',
      `The view of "${input.server}" has ${running} calls under way: wait for them to end.`,
    )
  }
  inFlight.set(key, running + 1)
  const signal = AbortSignal.timeout(VIEW_CALL_TIMEOUT_MS)
  try {
    const { tool, host, policy } = await findTool(d, input)
    const check = checkToolArguments(JSON.stringify(input.arguments), tool.inputSchema)
    if (!check.ok) {
      throw new ExpectedError(
        'bad_request',
        `The view of "${input.server}" called ${tool.tool} with arguments that do not fit: ${check.problem}`,
      )
    }
    await decide(
      d,
      new PermissionGate(policy, d.approver, d.app.rules),
      tool,
      check.value,
      input,
      signal,
    )
    const outcome = await host.callTool(tool.name, check.value, {
      signal,
      sessionId: input.sessionId,
      toolCallId: `view:${randomUUID()}`,
      fingerprint: tool.fingerprint,
    })
    return {
      content: outcome.content,
      isError: outcome.isError === true,
      ...(outcome.structuredContent !== undefined
        ? { structuredContent: outcome.structuredContent }
        : {}),
    }
  } finally {
    const left = (inFlight.get(key) ?? 1) - 1
    if (left > 0) inFlight.set(key, left)
    else inFlight.delete(key)
  }
}
