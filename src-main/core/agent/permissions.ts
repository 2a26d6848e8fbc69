import type {
  ApprovalDecision,
  DecidedBy,
  PermissionPolicy,
} from '../../../src-preload/contract/dto'
import type { PermissionRequestEvent } from '../../../src-preload/contract/events'
import type { Approver, PermissionRuleStore, ToolDescriptor } from '../ports'
import { isTrustedReadOnly } from '../ports'

export interface GateDecision {
  decision: ApprovalDecision
  reason?: string
  /** the user in the dialog, a remembered "always allow" rule, or the policy */
  by: DecidedBy
}

export interface GateRequest {
  requestId: string
  toolCallId: string
  tool: ToolDescriptor
  args: Record<string, unknown>
}

/**
 * The permission gate. `allow-all` and `deny-all` decide alone; `read-only` approves tools
 * whose read-only annotation can be trusted and asks for the rest; `ask` asks for
 * everything not remembered with "always allow".
 */
export class PermissionGate {
  constructor(
    private readonly policy: PermissionPolicy,
    private readonly approver: Approver,
    private readonly rules: PermissionRuleStore,
  ) {}

  /** Decides without asking, or returns null when the user must be asked. */
  decideByPolicy(tool: ToolDescriptor): GateDecision | null {
    switch (this.policy) {
      case 'allow-all':
        return { decision: 'allow_once', by: 'policy' }
      case 'deny-all':
        return {
          decision: 'deny',
          reason: 'tool calls are denied by the permission policy',
          by: 'policy',
        }
      case 'read-only':
        if (isTrustedReadOnly(tool)) return { decision: 'allow_once', by: 'policy' }
        break
      case 'ask':
        break
    }
    if (this.rules.isAlwaysAllowed(tool)) return { decision: 'allow_always', by: 'rule' }
    return null
  }

  async ask(
    event: PermissionRequestEvent,
    tool: ToolDescriptor,
    signal: AbortSignal,
  ): Promise<GateDecision> {
    const answer = await raceAbort(this.approver.request(event, signal), signal)
    if (answer.decision === 'allow_always') this.rules.rememberAlwaysAllow(tool)
    return {
      decision: answer.decision,
      ...(answer.reason ? { reason: answer.reason } : {}),
      by: 'user',
    }
  }
}

/** Settles with the promise, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(e as Error)
      },
    )
  })
}
