/**
 * An OpenAI-shaped chat request as Ollama's native `/api/chat` wants it: images as base64
 * beside the text, tool-call arguments as objects, tool results named by their tool,
 * reasoning as `thinking`, and what only the native API can set: `options.num_ctx`,
 * `keep_alive` and `think`.
 */
import type { ChatRequest, WireMessage } from '../types'

export interface OllamaRequestOptions {
  /** the context window to load the model with; null: Ollama's own */
  numCtx: number | null
  /** `5m`, `1h`, `-1` (a bare number is seconds) */
  keepAlive?: string
  /** sent only for models whose capabilities say `thinking` */
  think?: boolean
}

interface OllamaMessage {
  role: string
  content: string
  images?: string[]
  thinking?: string
  tool_calls?: Array<{ function: { name: string; arguments: Record<string, unknown> } }>
  tool_name?: string
}

/** Body parameters of the OpenAI API that Ollama takes in `options`, by their Ollama name. */
const OPTION_NAMES: Record<string, string> = {
  temperature: 'temperature',
  top_p: 'top_p',
  top_k: 'top_k',
  seed: 'seed',
  stop: 'stop',
  presence_penalty: 'presence_penalty',
  frequency_penalty: 'frequency_penalty',
  max_tokens: 'num_predict',
  max_completion_tokens: 'num_predict',
}

export function toOllamaBody(req: ChatRequest, o: OllamaRequestOptions): Record<string, unknown> {
  const toolNames = new Map<string, string>()
  const messages = req.messages.map((m) => toOllamaMessage(m, toolNames))
  const options: Record<string, unknown> = {}
  const body: Record<string, unknown> = { model: req.model, messages }
  if (req.tools && req.tools.length > 0) body['tools'] = req.tools
  for (const [key, value] of Object.entries(req.params ?? {})) {
    const name = OPTION_NAMES[key]
    if (name) options[name] = value
    else if (key === 'response_format' && isJsonFormat(value)) body['format'] = 'json'
  }
  if (o.numCtx !== null) options['num_ctx'] = o.numCtx
  if (Object.keys(options).length > 0) body['options'] = options
  if (o.keepAlive !== undefined) {
    body['keep_alive'] = /^-?\d+$/.test(o.keepAlive) ? Number(o.keepAlive) : o.keepAlive
  }
  if (o.think !== undefined) body['think'] = o.think
  body['stream'] = true
  return body
}

function isJsonFormat(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'json_object'
}

function toOllamaMessage(m: WireMessage, toolNames: Map<string, string>): OllamaMessage {
  const out: OllamaMessage = { role: m.role, content: '' }
  const content = m['content']
  if (typeof content === 'string') out.content = content
  else if (Array.isArray(content)) {
    const texts: string[] = []
    const images: string[] = []
    for (const part of content as Array<Record<string, unknown>>) {
      if (part?.['type'] === 'text' && typeof part['text'] === 'string') texts.push(part['text'])
      else if (part?.['type'] === 'image_url') {
        const url = (part['image_url'] as { url?: unknown } | undefined)?.url
        const data = typeof url === 'string' ? /^data:[^;,]+;base64,(.*)$/s.exec(url) : null
        if (data) images.push(data[1]!)
        else if (typeof url === 'string') texts.push(`[image: ${url}]`)
      }
    }
    out.content = texts.join('\n')
    if (images.length > 0) out.images = images
  }
  const reasoning = m['reasoning_content'] ?? m['reasoning']
  if (m.role === 'assistant' && typeof reasoning === 'string' && reasoning !== '') {
    out.thinking = reasoning
  }
  const calls = m['tool_calls']
  if (m.role === 'assistant' && Array.isArray(calls) && calls.length > 0) {
    out.tool_calls = calls.map(
      (c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }) => {
        const name = typeof c.function?.name === 'string' ? c.function.name : ''
        if (typeof c.id === 'string') toolNames.set(c.id, name)
        return { function: { name, arguments: argumentsObject(c.function?.arguments) } }
      },
    )
  }
  if (m.role === 'tool') {
    const id = m['tool_call_id']
    const name = typeof id === 'string' ? toolNames.get(id) : undefined
    if (name) out.tool_name = name
  }
  return out
}

/** Ollama wants the arguments as an object; what was not a JSON object goes as `{}`. */
function argumentsObject(args: unknown): Record<string, unknown> {
  if (typeof args === 'object' && args !== null && !Array.isArray(args))
    return args as Record<string, unknown>
  if (typeof args !== 'string') return {}
  try {
    const parsed: unknown = JSON.parse(args)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
