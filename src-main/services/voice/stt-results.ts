/**
 * What a voice server answers, read with zod from either shape it may use: the result's
 * `structuredContent`, or JSON in its first text part.
 */
import { z } from 'zod'
import type { ToolOutcome } from '../../core/ports'
import { ExpectedError } from '../../core/errors'

/** longest text of one utterance kept (a server that sends more is cut here) */
const MAX_UTTERANCE_CHARS = 20_000

const startSchema = z.object({ session_id: z.string().min(1).max(1000) })

const eventSchema = z.object({ type: z.string(), text: z.string() }).passthrough()

const updatesSchema = z.object({
  events: z.array(z.unknown()).max(10_000),
  cursor: z.unknown().optional(),
})

export interface Utterance {
  type: 'partial' | 'final'
  text: string
}

export interface Updates {
  utterances: Utterance[]
  /** passed back as it came on the next poll; undefined: the server sent none */
  cursor: unknown
}

/** The server answered in a way Cairn cannot read, or answered an error. */
function unreadable(message: string): ExpectedError {
  return new ExpectedError('unavailable', message)
}

function payload(tool: string, outcome: ToolOutcome): unknown {
  const text = outcome.content.find((p) => p.type === 'text')?.text
  if (outcome.isError)
    throw unreadable(`${tool} failed: ${(text ?? 'no reason given').slice(0, 500)}`)
  if (outcome.structuredContent !== undefined && outcome.structuredContent !== null)
    return outcome.structuredContent
  if (text === undefined) throw unreadable(`${tool} answered neither structured content nor text`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw unreadable(`${tool} answered text that is not JSON`)
  }
}

export function readStartResult(outcome: ToolOutcome): string {
  const parsed = startSchema.safeParse(payload('stt_start_session', outcome))
  if (!parsed.success) throw unreadable('stt_start_session answered no session_id')
  return parsed.data.session_id
}

export function readUpdates(outcome: ToolOutcome): Updates {
  const parsed = updatesSchema.safeParse(payload('stt_get_updates', outcome))
  if (!parsed.success) throw unreadable('stt_get_updates answered no list of events')
  const utterances: Utterance[] = []
  for (const raw of parsed.data.events) {
    const e = eventSchema.safeParse(raw)
    // other kinds of events (a server's own) are not Cairn's business
    if (!e.success) continue
    const type =
      e.data.type === 'utterance_final'
        ? 'final'
        : e.data.type === 'utterance_partial'
          ? 'partial'
          : null
    if (type) utterances.push({ type, text: e.data.text.slice(0, MAX_UTTERANCE_CHARS) })
  }
  return { utterances, cursor: parsed.data.cursor }
}
