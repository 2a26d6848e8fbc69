/**
 * A title for a new chat, written by the utility model from its first exchange (only when
 * the user turned generated titles on; otherwise a chat is titled by its first message).
 * The model's answer is untrusted text: one line, no markup or control characters, short.
 */
import type { ChatRequest } from '../llm/types'
import { completeQuietly } from './compaction'
import type { TierModel } from './model-tiers'

/** what of the exchange the model reads: enough to name it, never a whole document */
const EXCERPT_CHARS = 2_000
const MAX_TITLE_CHARS = 80

const INSTRUCTION =
  'Write a short title (at most six words) for the conversation below. ' +
  'Answer with the title only: no quotes, no punctuation at the end, no explanation.'

export async function writeTitle(input: {
  model: TierModel
  question: string
  answer: string
  signal: AbortSignal
}): Promise<string | null> {
  const request: ChatRequest = {
    model: input.model.model,
    messages: [
      { role: 'system', content: INSTRUCTION },
      {
        role: 'user',
        content: `User: ${input.question.slice(0, EXCERPT_CHARS)}\n\nAssistant: ${input.answer.slice(0, EXCERPT_CHARS)}`,
      },
    ],
    params: { temperature: 0.2, max_tokens: 32 },
  }
  const { content } = await completeQuietly(input.model.client, request, input.signal)
  return cleanTitle(content)
}

/** The first non-empty line, without markup, quotes or control characters, at most 80 characters. */
export function cleanTitle(text: string): string | null {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '')
  if (!line) return null
  let t = ''
  for (const ch of line) {
    const code = ch.codePointAt(0)!
    // control characters, and the marks a model wraps a title in
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || '*#`"“”‘’'.includes(ch)) continue
    t += ch
  }
  t = t.replace(/^title:\s*/i, '').trim()
  while (t.endsWith('.') || t.endsWith(':')) t = t.slice(0, -1).trimEnd()
  if (!t) return null
  const chars = [...t]
  return chars.length > MAX_TITLE_CHARS ? `${chars.slice(0, MAX_TITLE_CHARS - 1).join('')}…` : t
}
