import { randomUUID } from 'node:crypto'
import type {
  ContentPart,
  FailureKind,
  StoredMessage,
  ToolCallRecord,
} from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'
import { abortKindOf } from '../llm/types'
import type { ToolDescriptor } from '../ports'
import { isTrustedReadOnly } from '../ports'
import { ToolChangedError } from '../tools/composite-host'
import { raceAbort, type GateDecision } from './permissions'
import { loopWarningText } from './loop-detector'
import { danglingKindFor, danglingText, syntheticText } from './synthetic'
import { checkToolArguments, type ArgsCheck } from './tool-args'
import { callHooks } from './tool-call-hooks'
import { ToolCatalog } from './tool-catalog'
import {
  capParts,
  MAX_RESULT_IMAGE_CHARS,
  outcomeToText,
  richParts,
  truncateForModel,
} from './tool-content'
import type { TurnState } from './turn-state'

interface Prepared {
  call: ToolCallRecord
  tool: ToolDescriptor | undefined
  check: ArgsCheck | null
}

interface Result {
  ok: boolean
  content: string
  parts: ContentPart[] | null
  synthetic: boolean
  failureKind?: FailureKind
  durationMs: number
}

/** a result Cairn writes in place of the tool's (the call never ran) */
function syntheticResult(kind: FailureKind, content: string): Result {
  return { ok: false, content, parts: null, synthetic: true, failureKind: kind, durationMs: 0 }
}

/** One assistant message's calls, their recorder, and the decisions made in this round. */
interface Round {
  prepared: Prepared[]
  rec: OrderedRecorder
  tools: readonly ToolDescriptor[]
}

/** Thrown inside a round when the turn must end; the caller's stop function takes over. */
class RoundStop {
  constructor(readonly reason: TurnEndReason) {}
}

/**
 * Runs the tool calls of one assistant message. Each call gets exactly one result, in call
 * order. Returns the reason to end the turn, or null to go on with the next LLM call.
 * Calls left unanswered when it returns a reason are answered by the turn's stop function.
 */
export async function runToolRound(
  ctx: TurnState,
  assistant: StoredMessage,
  tools: readonly ToolDescriptor[],
): Promise<TurnEndReason | null> {
  const byName = new Map(tools.map((t) => [t.name, t]))
  // a connected tool the request did not offer (past find_tools' limit) runs when named exactly
  const host = ctx.deps.tools
  const known = (name: string): ToolDescriptor | undefined =>
    byName.get(name) ?? (host instanceof ToolCatalog ? host.connected(name) : undefined)
  ctx.decisions.clear()
  ctx.gate.startRound()
  const prepared = (assistant.toolCalls ?? []).map((call) => prepare(ctx, call, known(call.name)))
  const recorder = new OrderedRecorder(ctx, prepared)
  const round: Round = { prepared, rec: recorder, tools }
  try {
    const parallel =
      prepared.length > 1 &&
      prepared.every((p) => p.tool && p.check?.ok && isTrustedReadOnly(p.tool))
    if (parallel) await runParallel(ctx, round)
    else for (let i = 0; i < prepared.length; i++) await runOne(ctx, round, i)
    return null
  } catch (e) {
    const kind = abortKindOf(ctx.signal)
    const reason: TurnEndReason | null =
      e instanceof RoundStop
        ? e.reason
        : kind
          ? kind === 'deadline'
            ? 'deadline'
            : 'aborted'
          : null
    if (!reason) throw e
    // results that finished behind an unanswered call are kept, not lost
    recorder.closeGaps(reason)
    return reason
  }
}

function prepare(ctx: TurnState, call: ToolCallRecord, tool: ToolDescriptor | undefined): Prepared {
  const check = tool ? checkToolArguments(call.arguments, tool.inputSchema) : null
  // the arguments are shown as parsed whether or not the tool exists or they fit its schema
  const shown = check ?? checkToolArguments(call.arguments, {})
  ctx.emit({
    type: 'tool_call',
    id: call.id,
    name: call.name,
    server: tool?.server ?? '',
    tool: tool?.tool ?? call.name,
    arguments: shown.value,
    rawArguments: call.arguments,
    readOnly: tool ? isTrustedReadOnly(tool) : false,
  })
  return { call, tool, check }
}

/** Answers calls that cannot run (unknown tool, bad arguments). Returns true if it did. */
function answerInvalid(
  p: Prepared,
  i: number,
  rec: OrderedRecorder,
  tools: readonly ToolDescriptor[],
): boolean {
  if (!p.tool) {
    const names = tools.map((t) => t.name).join(', ')
    rec.synthetic(i, 'unknown_tool', syntheticText('unknown_tool', p.call.name, names || 'none'))
    return true
  }
  if (p.check && !p.check.ok) {
    rec.synthetic(
      i,
      'invalid_arguments',
      syntheticText('invalid_arguments', p.call.name, p.check.problem),
    )
    return true
  }
  return false
}

/** A call that passed the checks: its tool and its parsed arguments. */
function checked(p: Prepared): { tool: ToolDescriptor; args: Record<string, unknown> } {
  if (!p.tool || !p.check?.ok) throw new Error(`the call to ${p.call.name} was not checked`)
  return { tool: p.tool, args: p.check.value }
}

async function gate(
  ctx: TurnState,
  p: Prepared & { tool: ToolDescriptor },
  args: Record<string, unknown>,
): Promise<GateDecision> {
  const requestId = randomUUID()
  const decision = await ctx.gate.decide(p.tool, args, ctx.signal, () => {
    const event = {
      type: 'permission_request' as const,
      requestId,
      toolCallId: p.call.id,
      name: p.call.name,
      server: p.tool.server,
      tool: p.tool.tool,
      description: p.tool.description,
      arguments: args,
      annotations: p.tool.annotations,
      trusted: p.tool.trusted,
    }
    ctx.emit(event)
    return {
      ...event,
      sessionId: ctx.req.sessionId,
      turnId: ctx.req.turnId,
      at: ctx.deps.clock.now(),
    }
  })
  ctx.decisions.set(p.call.id, decision.by)
  ctx.emit({
    type: 'permission_decision',
    requestId,
    toolCallId: p.call.id,
    decision: decision.decision,
    ...(decision.reason ? { reason: decision.reason } : {}),
    by: decision.by,
  })
  return decision
}

function answerDenied(
  ctx: TurnState,
  p: Prepared,
  i: number,
  d: GateDecision,
  rec: OrderedRecorder,
): void {
  rec.synthetic(i, 'denied', syntheticText('denied', p.call.name, d.reason))
  if (ctx.req.limits.stopOnDenied) throw new RoundStop('denied')
}

/**
 * Checks the execution limit and the loop detector before anyone is asked, so nobody
 * approves a call that would then be refused; may end the turn. The execution is counted
 * once the call is allowed.
 */
function admit(ctx: TurnState, p: Prepared, args: Record<string, unknown>): string | null {
  if (ctx.toolExecutions >= ctx.req.limits.maxToolExecutions)
    throw new RoundStop('max_tool_executions')
  const loop = ctx.loop.record(p.call.name, args)
  if (loop.verdict === 'stop') throw new RoundStop('loop')
  if (loop.verdict === 'warn') {
    ctx.emit({ type: 'loop_warning', name: p.call.name, count: loop.count })
    return loopWarningText(p.call.name, loop.count, false)
  }
  return null
}

async function runOne(ctx: TurnState, round: Round, i: number): Promise<void> {
  const p = round.prepared[i]!
  const rec = round.rec
  if (ctx.signal.aborted) throw ctx.signal.reason
  if (answerInvalid(p, i, rec, round.tools)) return
  const { tool, args } = checked(p)
  const warning = admit(ctx, p, args)
  const decision = await gate(ctx, { ...p, tool }, args)
  if (decision.decision === 'deny') return answerDenied(ctx, p, i, decision, rec)
  ctx.toolExecutions++
  const result = await execute(ctx, p, tool, args, warning)
  rec.record(i, result)
  if (!result.ok && ctx.req.limits.stopOnToolFailure) throw new RoundStop('tool_failure')
}

async function runParallel(ctx: TurnState, round: Round): Promise<void> {
  const { prepared, rec } = round
  const approved: { i: number; args: Record<string, unknown>; warning: string | null }[] = []
  for (let i = 0; i < prepared.length; i++) {
    const p = prepared[i]!
    const { tool, args } = checked(p)
    const warning = admit(ctx, p, args)
    const decision = await gate(ctx, { ...p, tool }, args)
    if (decision.decision === 'deny') {
      answerDenied(ctx, p, i, decision, rec)
      continue
    }
    ctx.toolExecutions++
    approved.push({ i, args, warning })
  }
  const failures = await Promise.all(
    approved.map(async (a) => {
      const p = prepared[a.i]!
      const result = await execute(ctx, p, checked(p).tool, a.args, a.warning)
      rec.record(a.i, result)
      return !result.ok
    }),
  )
  if (failures.some(Boolean) && ctx.req.limits.stopOnToolFailure)
    throw new RoundStop('tool_failure')
}

async function execute(
  ctx: TurnState,
  p: Prepared,
  tool: ToolDescriptor,
  args: Record<string, unknown>,
  warning: string | null,
): Promise<Result> {
  const started = ctx.deps.clock.now()
  let ok = true
  let text: string
  let parts: ContentPart[] | null = null
  try {
    const outcome = await raceAbort(
      ctx.deps.tools.callTool(p.call.name, args, {
        signal: ctx.signal,
        sessionId: ctx.req.sessionId,
        toolCallId: p.call.id,
        fingerprint: tool.fingerprint,
        ...callHooks(ctx, p.call.id),
      }),
      ctx.signal,
    )
    text = outcomeToText(outcome)
    // what is stored and shown is cut like what is sent
    const rich = richParts(outcome)
    parts =
      rich &&
      capParts(rich, tool.name, {
        maxChars: ctx.req.limits.maxToolOutputChars,
        maxImageChars: MAX_RESULT_IMAGE_CHARS,
      })
    if (outcome.isError) {
      ok = false
      text = `Error from ${tool.name}: ${text || 'the tool reported an error without details'}`
    }
  } catch (e) {
    if (ctx.signal.aborted) throw e // the stop function answers this call
    if (e instanceof ToolChangedError) {
      // approved (by the user, a rule or the policy) as it was; it is not that tool anymore
      return syntheticResult('tool_changed', syntheticText('tool_changed', p.call.name))
    }
    ok = false
    text = `Error: ${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`
  }
  text = truncateForModel(text, ctx.req.limits.maxToolOutputChars, tool.name)
  if (warning) text = `${text}\n\n${warning}`
  return { ok, content: text, parts, synthetic: false, durationMs: ctx.deps.clock.now() - started }
}

/** Saves results in call order, whatever order they finish in. */
class OrderedRecorder {
  private readonly results: (Result | undefined)[]
  private next = 0

  constructor(
    private readonly ctx: TurnState,
    private readonly prepared: Prepared[],
  ) {
    this.results = new Array<Result | undefined>(prepared.length)
  }

  synthetic(i: number, kind: FailureKind, content: string): void {
    this.record(i, syntheticResult(kind, content))
  }

  /** Answers the unanswered calls that stand before a recorded result, so it can be saved. */
  closeGaps(reason: TurnEndReason): void {
    const last = this.results.findLastIndex((r) => r !== undefined)
    if (last < this.next) return
    const kind = danglingKindFor(reason)
    for (let i = this.next; i < last; i++) {
      if (!this.results[i]) {
        const { name, id } = this.prepared[i]!.call
        const text = danglingText(kind, name, reason, this.ctx.decisions.has(id))
        this.results[i] = syntheticResult(kind, text)
      }
    }
    this.record(last, this.results[last]!)
  }

  record(i: number, result: Result): void {
    this.results[i] = result
    while (this.next < this.results.length && this.results[this.next]) {
      this.flush(this.next, this.results[this.next]!)
      this.next++
    }
  }

  private flush(i: number, r: Result): void {
    const call = this.prepared[i]!.call
    this.ctx.save({
      role: 'tool',
      content: r.content,
      parts: r.parts,
      toolCallId: call.id,
      toolName: call.name,
      status: 'complete',
      failureKind: r.failureKind ?? null,
      isError: !r.ok,
      turnId: this.ctx.req.turnId,
      // a synthetic result did not run; a decision is known only once the gate was reached
      durationMs: r.synthetic ? null : r.durationMs,
      decidedBy: this.ctx.decisions.get(call.id) ?? null,
    })
    this.ctx.emit({
      type: 'tool_result',
      id: call.id,
      ok: r.ok,
      content: r.content,
      durationMs: r.durationMs,
      synthetic: r.synthetic,
      ...(r.failureKind ? { failureKind: r.failureKind } : {}),
      ...(r.parts && r.parts.length > 0 ? { parts: r.parts } : {}),
    })
  }
}
