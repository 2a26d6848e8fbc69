/**
 * A server's questions to the user (`elicitation/create`) during its tool calls. The
 * protocol does not say which call a question belongs to over stdio, so it goes to the
 * call of this server that started last and is still running; with none running, nobody
 * could be shown it and it is declined. While it waits, that call's time limit stands still.
 */
import type { Client, ElicitResult } from '@modelcontextprotocol/client'
import { elicitationFields, settleAnswer } from '../../../src-preload/contract/elicitation'
import type { ToolCallScope } from '../../core/ports'
import type { CallTimer } from './call-timer'

/** a question longer than this (its message; its schema or address) is declined unshown */
const MAX_MESSAGE_CHARS = 20_000
const MAX_SCHEMA_CHARS = 100_000

/** what Cairn tells servers it can do: forms (defaults filled in) and addresses to open */
export const ELICITATION_CAPABILITY = { form: { applyDefaults: true }, url: {} }

interface Running {
  ctx: ToolCallScope
  timer: CallTimer
}

/** The tool calls of one server that are running now, in the order they started. */
export class RunningCalls {
  private readonly list: Running[] = []

  add(ctx: ToolCallScope, timer: CallTimer): () => void {
    const entry = { ctx, timer }
    this.list.push(entry)
    return () => {
      const i = this.list.indexOf(entry)
      if (i >= 0) this.list.splice(i, 1)
    }
  }

  latest(): Running | undefined {
    return this.list[this.list.length - 1]
  }
}

export function installElicitation(client: Client, server: string, calls: RunningCalls): void {
  client.setRequestHandler('elicitation/create', async (request): Promise<ElicitResult> => {
    const running = calls.latest()
    if (!running?.ctx.elicit) return { action: 'decline' }
    const p = request.params
    const url = p.mode === 'url'
    // a question too large to show is not put to anyone
    const size = url ? (p.url?.length ?? 0) : JSON.stringify(p.requestedSchema ?? {}).length
    if (p.message.length > MAX_MESSAGE_CHARS || size > MAX_SCHEMA_CHARS)
      return { action: 'decline' }
    // a form that is not flat fields (nested objects, unknown types) cannot be shown
    if (!url && !elicitationFields(p.requestedSchema).ok) return { action: 'decline' }
    running.timer.pause()
    try {
      const answer = await running.ctx.elicit({
        server,
        mode: url ? 'url' : 'form',
        message: p.message,
        ...(url
          ? { url: p.url }
          : { requestedSchema: p.requestedSchema as Record<string, unknown> }),
      })
      if (answer.action !== 'accept') return { action: answer.action }
      if (url) return { action: 'accept' }
      // what goes to the server fits its form, whoever answered (window, terminal)
      const settled = settleAnswer(p.requestedSchema, answer)
      if (!settled.ok || settled.answer.action !== 'accept') return { action: 'decline' }
      return { action: 'accept', content: settled.answer.content ?? {} }
    } finally {
      running.timer.resume()
    }
  })
}
