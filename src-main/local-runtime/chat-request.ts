/**
 * An OpenAI chat-completions request as the local runtime reads it, and what it becomes for
 * node-llama-cpp: a chat history (system, user and model turns, tool calls with their
 * results inside the model turn that made them) and the functions the chat template offers.
 * Everything in the request is checked; what the runtime cannot use is said, not guessed.
 */
import { z } from 'zod'
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions } from 'node-llama-cpp'
import { toGbnfSchema } from './json-schema-gbnf'

const textPart = z.object({ type: z.literal('text'), text: z.string() })
const otherPart = z.object({ type: z.string() }).passthrough()
const content = z.union([z.string(), z.array(z.union([textPart, otherPart])), z.null()]).optional()

const toolCall = z.object({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
})

const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content }).passthrough(),
  z.object({ role: z.literal('developer'), content }).passthrough(),
  z.object({ role: z.literal('user'), content }).passthrough(),
  z
    .object({
      role: z.literal('assistant'),
      content,
      reasoning_content: z.string().nullable().optional(),
      tool_calls: z.array(toolCall).optional(),
    })
    .passthrough(),
  z.object({ role: z.literal('tool'), content, tool_call_id: z.string() }).passthrough(),
])

const tool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1).max(200),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
})

export const chatCompletionRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(message).min(1),
    tools: z.array(tool).optional(),
    tool_choice: z.unknown().optional(),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    seed: z.number().int().optional(),
    chat_template_kwargs: z.object({ enable_thinking: z.boolean().optional() }).optional(),
  })
  .passthrough()

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequest>
type Message = z.infer<typeof message>

/** The text of a message's content; parts that are not text are named in their place. */
export function contentText(c: Message['content']): string {
  if (c == null) return ''
  if (typeof c === 'string') return c
  return c
    .map((p) =>
      p.type === 'text' && typeof p['text'] === 'string'
        ? p['text']
        : `[${p.type} left out: this local model reads text only]`,
    )
    .join('')
}

function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

/**
 * The request's messages as node-llama-cpp's chat history. An assistant message and the
 * tool results that answer its calls become one model turn; consecutive system messages
 * are joined.
 */
export function toChatHistory(messages: Message[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = []
  const results = new Map<string, string>()
  for (const m of messages)
    if (m.role === 'tool') results.set(m.tool_call_id, contentText(m.content))
  for (const m of messages) {
    switch (m.role) {
      case 'system':
      case 'developer': {
        const last = history.at(-1)
        const text = contentText(m.content)
        if (last?.type === 'system' && typeof last.text === 'string') last.text += `\n\n${text}`
        else history.push({ type: 'system', text })
        break
      }
      case 'user':
        history.push({ type: 'user', text: contentText(m.content) })
        break
      case 'assistant': {
        const response: (string | ChatModelFunctionCall)[] = []
        const text = contentText(m.content)
        if (text) response.push(text)
        for (const call of m.tool_calls ?? []) {
          response.push({
            type: 'functionCall',
            name: call.function.name,
            params: parseArguments(call.function.arguments),
            result: results.get(call.id) ?? '(no result was given)',
          })
        }
        history.push({ type: 'model', response })
        break
      }
      case 'tool':
        break // inside the model turn that called it
    }
  }
  // the answer to write: a new model turn after a user's message; after tool results, the
  // model goes on with the turn that called them
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] })
  return history
}

/** The request's tools as the functions the chat template offers (none with `tool_choice: none`). */
export function toFunctions(req: ChatCompletionRequest): ChatModelFunctions | undefined {
  if (!req.tools || req.tools.length === 0 || req.tool_choice === 'none') return undefined
  const functions: Record<string, ChatModelFunctions[string]> = {}
  for (const t of req.tools) {
    const params = t.function.parameters ? toGbnfSchema(t.function.parameters) : undefined
    functions[t.function.name] = {
      ...(t.function.description ? { description: t.function.description } : {}),
      ...(params ? { params } : {}),
    }
  }
  return functions
}
