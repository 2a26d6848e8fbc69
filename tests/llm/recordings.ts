/**
 * The recorded provider streams in tests/fixtures/streams: loading them, serving them from the
 * scripted server, and reading what each one says (text, reasoning, tool calls, finish reason,
 * usage, error) straight from the recording, independently of the client under test.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Reply } from '../support/openai-server'

export const STREAMS_DIR = join(process.cwd(), 'tests', 'fixtures', 'streams')

export interface Recording {
  file: string
  /** `chunks`: one JSON payload per line; `sse`: the raw bytes of the response body */
  format: 'chunks' | 'sse'
  raw: string
}

export function listRecordings(): Recording[] {
  return readdirSync(STREAMS_DIR)
    .filter((f) => f.endsWith('.chunks.txt') || f.endsWith('.sse'))
    .sort()
    .map((file) => loadRecording(file))
}

export function loadRecording(file: string): Recording {
  return {
    file,
    format: file.endsWith('.sse') ? 'sse' : 'chunks',
    raw: readFileSync(join(STREAMS_DIR, file), 'utf8'),
  }
}

/**
 * The reply that replays a recording: a `.sse` file byte for byte; a `.chunks.txt` file (the
 * payloads only, as the projects that keep them store them) as one `data:` event per line,
 * ended by `data: [DONE]` as the providers end their streams.
 */
export function replay(rec: Recording): Reply {
  if (rec.format === 'sse')
    return { type: 'sse', items: [{ raw: rec.raw }], end: 'end-without-done' }
  return {
    type: 'sse',
    items: payloads(rec).map((line) => ({ raw: `data: ${line}\n\n` })),
    end: 'done',
  }
}

/** The JSON payloads of the recording, in order (`[DONE]` left out). */
export function payloads(rec: Recording): string[] {
  if (rec.format === 'chunks') return rec.raw.split('\n').filter((l) => l.trim() !== '')
  const out: string[] = []
  for (const block of rec.raw.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n')
    if (data !== '' && data !== '[DONE]') out.push(data)
  }
  return out
}

export interface Expected {
  text: string
  reasoning: string
  toolCalls: { name: string; arguments: unknown }[]
  finishReason: string | null
  usage: { prompt: number; completion: number } | null
  /** the message of the first `{"error": …}` payload or `x_groq.error` */
  error: string | null
  /** a `data: [DONE]` line is served */
  done: boolean
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** What the recording says, read from its payloads. */
export function expectedOf(rec: Recording): Expected {
  let text = ''
  let reasoning = ''
  let finishReason: string | null = null
  let usage: Expected['usage'] = null
  let error: string | null = null
  const calls: { name: string; args: string }[] = []
  const byIndex = new Map<number, { name: string; args: string }>()
  const readUsage = (u: unknown, standard: boolean): void => {
    if (!isObj(u) || typeof u['prompt_tokens'] !== 'number') return
    if (standard || usage === null) {
      usage = { prompt: u['prompt_tokens'], completion: Number(u['completion_tokens'] ?? 0) }
    }
  }
  for (const line of payloads(rec)) {
    const chunk: unknown = JSON.parse(line)
    if (!isObj(chunk)) continue
    if (error === null && isObj(chunk['error'])) {
      error = String(chunk['error']['message'] ?? '')
      break
    }
    readUsage(chunk['usage'], true)
    const groq = chunk['x_groq']
    if (isObj(groq)) {
      readUsage(groq['usage'], false)
      if (typeof groq['error'] === 'string' && error === null) error = groq['error']
    }
    const choice = Array.isArray(chunk['choices']) ? (chunk['choices'][0] as unknown) : undefined
    if (!isObj(choice)) continue
    readUsage(choice['usage'], false)
    const d = choice['delta']
    if (isObj(d)) {
      const r =
        typeof d['reasoning_content'] === 'string' && d['reasoning_content'] !== ''
          ? d['reasoning_content']
          : typeof d['reasoning'] === 'string'
            ? d['reasoning']
            : ''
      reasoning += r
      if (r === '' && Array.isArray(d['reasoning_details'])) {
        for (const det of d['reasoning_details']) {
          if (isObj(det) && det['type'] === 'reasoning.text' && typeof det['text'] === 'string')
            reasoning += det['text']
        }
      }
      const c = d['content']
      if (typeof c === 'string') text += c
      else if (Array.isArray(c)) {
        for (const part of c) {
          if (!isObj(part)) continue
          if (part['type'] === 'thinking' && Array.isArray(part['thinking'])) {
            for (const t of part['thinking']) if (isObj(t)) reasoning += String(t['text'] ?? '')
          } else if (part['type'] === 'text') text += String(part['text'] ?? '')
        }
      }
      const tcs = d['tool_calls']
      if (Array.isArray(tcs)) {
        tcs.forEach((tc: unknown, position) => {
          if (!isObj(tc)) return
          const fn = isObj(tc['function']) ? tc['function'] : {}
          const name = typeof fn['name'] === 'string' ? fn['name'] : ''
          const args =
            typeof fn['arguments'] === 'string'
              ? fn['arguments']
              : isObj(fn['arguments'])
                ? JSON.stringify(fn['arguments'])
                : ''
          let call: { name: string; args: string } | undefined
          if (typeof tc['index'] === 'number') call = byIndex.get(tc['index'])
          else if (name === '' && tc['id'] === undefined)
            call = calls[calls.length - tcs.length + position] ?? calls[calls.length - 1]
          if (!call) {
            call = { name, args: '' }
            calls.push(call)
            byIndex.set(typeof tc['index'] === 'number' ? tc['index'] : calls.length - 1, call)
          }
          if (call.name === '') call.name = name
          call.args += args
        })
      }
    }
    if (typeof choice['finish_reason'] === 'string' && choice['finish_reason'] !== '')
      finishReason = choice['finish_reason']
  }
  const done = rec.format === 'chunks' || /(^|\n)data: ?\[DONE\]/.test(rec.raw)
  // inline <think> blocks are reasoning
  const m = /^\s*<think>([\s\S]*?)<\/think>\s*/.exec(text)
  if (m) {
    reasoning += m[1] ?? ''
    text = text.slice(m[0].length)
  }
  return {
    text,
    reasoning,
    toolCalls: calls.map((c) => ({
      name: c.name,
      arguments: c.args === '' ? {} : (JSON.parse(c.args) as unknown),
    })),
    finishReason,
    usage,
    error,
    done,
  }
}
