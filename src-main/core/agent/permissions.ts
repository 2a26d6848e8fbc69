import type {
  ApprovalDecision,
  DecidedBy,
  PermissionPolicy,
} from '../../../src-preload/contract/dto'
import type { ApprovalRequestEvent } from '../../../src-preload/contract/events'
import type { Approver, PermissionRuleStore, ToolDescriptor } from '../ports'
import { isTrustedReadOnly } from '../ports'
import { isSkillReading } from '../skills/skills'
import { canonicalJson } from './canonical-json'
import { isFindTools } from './tool-catalog'

/** how much runs without asking, from none (`deny-all`) to everything (`allow-all`) */
const LOOSENESS: Record<PermissionPolicy, number> = {
  'deny-all': 0,
  ask: 1,
  'read-only': 2,
  'allow-all': 3,
}

/** True when `policy` lets more run without asking than `than`. */
export function isLooserPolicy(policy: PermissionPolicy, than: PermissionPolicy): boolean {
  return LOOSENESS[policy] > LOOSENESS[than]
}

export interface GateDecision {
  decision: ApprovalDecision
  reason?: string
  /** the user in the dialog, a remembered "always allow" rule, or the policy */
  by: DecidedBy
}

/**
 * The permission gate. `allow-all` and `deny-all` decide alone; `read-only` approves tools
 * whose read-only annotation can be trusted and asks for the rest; `ask` asks for
 * everything not remembered with "always allow". `find_tools` only reads the list of
 * connected tools: it is never asked about. Identical calls (same tool, same arguments) in
 * one tool round are decided once: the first answer applies to each.
 */
export class PermissionGate {
  /** this round's decisions, by tool name and canonical arguments */
  private readonly decidedThisRound = new Map<string, GateDecision>()

  constructor(
    private readonly policy: PermissionPolicy,
    private readonly approver: Approver,
    private readonly rules: PermissionRuleStore,
  ) {}

  /** A new tool round: the last round's answers do not carry over. */
  startRound(): void {
    this.decidedThisRound.clear()
  }

  /**
   * Decides one call of the round: as an identical call before it, by the exemption of
   * `find_tools`, by the policy or a rule, or else by the user, whom `announce` (which
   * tells the turn's listeners) describes the call to.
   */
  async decide(
    tool: ToolDescriptor,
    args: Record<string, unknown>,
    signal: AbortSignal,
    announce: () => ApprovalRequestEvent,
  ): Promise<GateDecision> {
    const key = `${tool.name}\u0000${canonicalJson(args)}`
    const decision =
      this.decidedThisRound.get(key) ??
      (isFindTools(tool) ? ({ decision: 'allow_once', by: 'policy' } as const) : null) ??
      this.decideByPolicy(tool) ??
      (await this.ask(announce(), tool, signal))
    this.decidedThisRound.set(key, decision)
    return decision
  }

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
    if (isSkillReading(tool)) return { decision: 'allow_once', by: 'policy' }
    if (this.rules.isAlwaysAllowed(tool)) return { decision: 'allow_always', by: 'rule' }
    return null
  }

  private async ask(
    event: ApprovalRequestEvent,
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
