/**
 * Runs real turns for tests: the real loop, the real SQLite store, the real `openai` SDK
 * against the scripted server, in-process tools, and a scripted approver.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { ApprovalDecision, PermissionPolicy } from '../../src-preload/contract/dto'
import type { AgentEvent, ApprovalRequestEvent } from '../../src-preload/contract/events'
import { DEFAULT_LIMITS, type TurnLimits } from '../../src-main/core/agent/limits'
import { runTurn, type TurnOutcome } from '../../src-main/core/agent/turn-runner'
import type { BugReporter } from '../../src-main/core/errors'
import { LlmClient } from '../../src-main/core/llm/client'
import type {
  Clock,
  Elicitor,
  PermissionRuleStore,
  TokenCalibration,
  ToolDescriptor,
  ToolHost,
  TurnLogger,
} from '../../src-main/core/ports'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { startScriptedServer, type ScriptedServer } from './openai-server'
import { TestToolHost } from './test-tools'

export class MemoryRules implements PermissionRuleStore {
  readonly rules = new Set<string>()
  isAlwaysAllowed(t: ToolDescriptor): boolean {
    return this.rules.has(`${t.server}/${t.tool}/${t.fingerprint}`)
  }
  rememberAlwaysAllow(t: ToolDescriptor): void {
    this.rules.add(`${t.server}/${t.tool}/${t.fingerprint}`)
  }
}

/** Answers approval requests from a script; records what it was asked. */
export class ScriptedApprover {
  readonly asked: ApprovalRequestEvent[] = []
  answers: ({ decision: ApprovalDecision; reason?: string } | 'hang')[] = []
  fallback: ApprovalDecision = 'allow_once'

  request = async (req: ApprovalRequestEvent, signal: AbortSignal) => {
    this.asked.push(req)
    const next = this.answers.shift()
    if (next === 'hang') {
      return new Promise<never>((_r, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error)),
      )
    }
    return next ?? { decision: this.fallback }
  }
}

/** Real time, but backoff sleeps are recorded and shortened so tests stay fast. */
export function fastClock(recorded: number[] = []): Clock & { slept: number[] } {
  return {
    slept: recorded,
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        recorded.push(ms)
        if (signal?.aborted) return reject(signal.reason as Error)
        const t = setTimeout(resolve, Math.min(ms, 5))
        signal?.addEventListener('abort', () => {
          clearTimeout(t)
          reject(signal.reason as Error)
        })
      }),
  }
}

export interface Harness {
  dir: string
  server: ScriptedServer
  store: SqliteSessionStore
  tools: TestToolHost
  approver: ScriptedApprover
  rules: MemoryRules
  clock: ReturnType<typeof fastClock>
  sessionId: string
  model: string
  events: AgentEvent[]
  turn(
    text: string,
    opts?: {
      policy?: PermissionPolicy
      limits?: Partial<TurnLimits>
      signal?: AbortSignal
      model?: string
      /** the model that writes summaries (unset: the turn's model) */
      utilityModel?: string
      systemPrompt?: string | null
      /** learns the model's characters per token (none: the estimate's default) */
      calibration?: TokenCalibration
      /** what the assembled system prompt says about where the turn runs */
      environment?: { os: string; workspace: string | null }
      logger?: TurnLogger
      toolHost?: ToolHost
      /** answers servers' questions during tool calls (none: declined) */
      elicitor?: Elicitor
      onEvent?: (e: AgentEvent) => void
      /** the seq of the user message this turn's message is a new version of */
      supersedes?: number
      /** the seq the turn's message follows (null: it starts the session) */
      parentSeq?: number | null
      /** answer the user message with this seq again (no new message; `text` unused) */
      answerAgain?: number
      /** logs a bug that ends the turn (the host's log), giving its id */
      reportBug?: BugReporter
    },
  ): Promise<{ outcome: TurnOutcome; events: AgentEvent[]; turnId: string }>
  close(): Promise<void>
}

export async function createHarness(
  opts: { strict?: boolean; model?: string } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-agent-'))
  const server = await startScriptedServer({
    strict: opts.strict ?? true,
    models: ['test-model', 'other-model'],
  })
  const store = createSessionStore(dir)
  const model = opts.model ?? 'test-model'
  const session = store.createSession({ provider: server.baseURL, model })
  const h: Harness = {
    dir,
    server,
    store,
    tools: new TestToolHost(),
    approver: new ScriptedApprover(),
    rules: new MemoryRules(),
    clock: fastClock(),
    sessionId: session.id,
    model,
    events: [],
    async turn(text, o = {}) {
      const events: AgentEvent[] = []
      const turnId = randomUUID()
      const m = o.model ?? model
      const outcome = await runTurn(
        {
          store,
          tools: o.toolHost ?? h.tools,
          approver: h.approver,
          ...(o.elicitor ? { elicitor: o.elicitor } : {}),
          rules: h.rules,
          clock: h.clock,
          ...(o.logger ? { logger: o.logger } : {}),
          ...(o.calibration ? { calibration: o.calibration } : {}),
          ...(o.reportBug ? { reportBug: o.reportBug } : {}),
          llm: {
            client: new LlmClient({ baseURL: server.baseURL }, { fetch }),
            baseURL: server.baseURL,
            provider: server.baseURL,
            model: m,
            ...(o.utilityModel ? { utilityModel: o.utilityModel } : {}),
          },
        },
        {
          sessionId: h.sessionId,
          turnId,
          text,
          ...(o.supersedes !== undefined ? { supersedes: o.supersedes } : {}),
          ...(o.parentSeq !== undefined ? { parentSeq: o.parentSeq } : {}),
          ...(o.answerAgain !== undefined ? { answerAgain: o.answerAgain } : {}),
          policy: o.policy ?? 'allow-all',
          limits: { ...DEFAULT_LIMITS, ...o.limits },
          systemPrompt: o.systemPrompt ?? null,
          ...(o.environment ? { environment: o.environment } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          emit: (e) => {
            events.push(e)
            h.events.push(e)
            o.onEvent?.(e)
          },
        },
      )
      return { outcome, events, turnId }
    },
    async close() {
      store.close()
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return h
}

export function textOf(events: AgentEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')
}

export function ofType<T extends AgentEvent['type']>(
  events: AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type)
}

/** The text a UI shows at the end: deltas, minus what each discarding retry dropped. */
export function shownText(events: AgentEvent[]): string {
  let shown = ''
  let attempt = ''
  for (const e of events) {
    if (e.type === 'text_delta') attempt += e.text
    else if (e.type === 'retry' && e.discardPartial) attempt = ''
    else if (e.type === 'message_saved') {
      shown += attempt
      attempt = ''
    }
  }
  return shown + attempt
}
