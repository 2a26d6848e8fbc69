/**
 * What a running tool call may do besides answering: report progress (shown on its card)
 * and, through its server, ask the user something (an elicitation, shown as a form). Both
 * become events of the turn; the question goes to the turn's elicitor, and Stop withdraws
 * it (the server is answered `cancel`).
 */
import { randomUUID } from 'node:crypto'
import type { ElicitAnswer } from '../../../src-preload/contract/elicitation'
import type { ElicitationAsk, ToolCallScope, ToolProgress } from '../ports'
import { raceAbort } from './permissions'
import type { TurnState } from './turn-state'

/** progress reports closer together than this are not all shown (the turn keeps its events) */
const PROGRESS_EVERY_MS = 100

export function callHooks(
  ctx: TurnState,
  toolCallId: string,
): Pick<ToolCallScope, 'onProgress' | 'elicit'> {
  let lastShown = -Infinity
  let lastMessage: string | undefined
  return {
    onProgress(p: ToolProgress) {
      if (!Number.isFinite(p.progress)) return
      // a chatty tool is shown at most every PROGRESS_EVERY_MS (its end and new words always)
      const now = ctx.deps.clock.now()
      const end = p.total !== undefined && p.progress >= p.total
      if (now - lastShown < PROGRESS_EVERY_MS && !end && p.message === lastMessage) return
      lastShown = now
      lastMessage = p.message
      ctx.emit({
        type: 'tool_progress',
        id: toolCallId,
        progress: p.progress,
        ...(p.total !== undefined && Number.isFinite(p.total) ? { total: p.total } : {}),
        ...(p.message ? { message: p.message.slice(0, 2000) } : {}),
      })
    },
    async elicit(ask: ElicitationAsk): Promise<ElicitAnswer> {
      const elicitor = ctx.deps.elicitor
      if (!elicitor || ctx.signal.aborted) return { action: elicitor ? 'cancel' : 'decline' }
      const requestId = randomUUID()
      const event = {
        type: 'elicitation_request' as const,
        requestId,
        toolCallId,
        server: ask.server,
        mode: ask.mode,
        message: ask.message,
        ...(ask.requestedSchema ? { requestedSchema: ask.requestedSchema } : {}),
        ...(ask.url !== undefined ? { url: ask.url } : {}),
      }
      ctx.emit(event)
      let answer: ElicitAnswer
      try {
        answer = await raceAbort(
          elicitor.request(
            {
              ...event,
              sessionId: ctx.req.sessionId,
              turnId: ctx.req.turnId,
              at: ctx.deps.clock.now(),
            },
            ctx.signal,
          ),
          ctx.signal,
        )
      } catch {
        // stopped (or the question was withdrawn): the server is told the user cancelled
        answer = { action: 'cancel' }
      }
      ctx.emit({ type: 'elicitation_resolved', requestId, toolCallId, action: answer.action })
      return answer
    },
  }
}
