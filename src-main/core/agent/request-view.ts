import type { StoredMessage } from '../../../src-preload/contract/dto'
import type { ToolDescriptor } from '../ports'
import type { WireMessage, WireTool } from '../llm/types'
import { coverage, type Coverage } from './summary-ranges'
import { pairToolCalls } from './pair-tool-calls'
import { parseToolArguments } from './tool-args'
import { userWireContent, type AttachmentsView } from './user-attachments'

/**
 * The request-time view of one branch of a session's history (`history-tree.ts`: its
 * messages from the first, with the summaries that apply to it; other branches are never
 * sent). The raw history is never rewritten; what a provider needs is applied here, to a
 * copy:
 * - notices are not sent; a summary stands in for the messages it covers, where the first
 *   of them was (pinned messages and their tool calls stay); an older summary without a
 *   range stands in for everything before it;
 * - tool calls made by another provider or model are flattened to text (masked), since a
 *   strict server may reject another provider's tool-call artifacts;
 * - reasoning (and provider extras) go back only on assistant messages with tool calls,
 *   to the same provider and model (DeepSeek's thinking mode needs it there; older
 *   reasoners reject it anywhere else);
 * - tool-call arguments that were not valid JSON are sent as `{}`;
 * - every tool call sent is answered by exactly one result right after it: a result
 *   without its call, or a call without its result, is left out (`pair-tool-calls.ts`).
 */
export interface ViewTarget {
  provider: string
  model: string
  systemPrompt: string | null
  /** the model accepts images: images returned by tools follow their results as a user message */
  imageInput?: boolean
  /** false: attached images are named, not sent (the model cannot see); default: sent */
  attachedImages?: boolean
  /** the stored files of attached images and documents, and how much of each document is sent */
  attachments?: AttachmentsView
}

export interface ViewDiagnostics {
  /** tool calls flattened because they came from another provider or model */
  flattenedToolCalls: number
  /** messages left out (notices, or before a summary) */
  omitted: number
  /** messages a summary stands in for */
  summarized: number
}

export function buildRequestView(
  history: readonly StoredMessage[],
  target: ViewTarget,
): { messages: WireMessage[]; diagnostics: ViewDiagnostics; pinned: Set<WireMessage> } {
  const start = lastOpenSummary(history)
  const b: ViewBuilder = {
    out: target.systemPrompt ? [{ role: 'system', content: target.systemPrompt }] : [],
    target,
    diagnostics: {
      flattenedToolCalls: 0,
      omitted: start,
      summarized: 0,
    },
    pinned: new Set(),
    coverage: coverage(history.slice(start)),
    placed: new Set(),
    flattened: new Map(),
    images: [],
  }
  for (let i = start; i < history.length; i++) {
    const m = history[i]
    if (!m) continue
    if (m.role !== 'tool') flushImages(b)
    addMessage(b, m)
  }
  flushImages(b)
  return pairCalls(b)
}

/** The view as it is built, message by message. */
interface ViewBuilder {
  out: WireMessage[]
  readonly target: ViewTarget
  readonly diagnostics: ViewDiagnostics
  /** what is sent for pinned messages */
  readonly pinned: Set<WireMessage>
  readonly coverage: Coverage
  /** the summaries already placed where their range begins */
  readonly placed: Set<StoredMessage>
  /** tool call id → tool name, for calls sent as text */
  readonly flattened: Map<string, string>
  /** images returned by the tool results since the last other message */
  images: WirePart[]
}

/** where the view starts: at the newest summary without a range (it stands for all before it) */
function lastOpenSummary(history: readonly StoredMessage[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]?.kind === 'summary' && !history[i]?.covers) return i
  }
  return 0
}

/** the images of the tool results just sent, as one user message after them */
function flushImages(b: ViewBuilder): void {
  if (b.images.length === 0) return
  b.out.push({
    role: 'user',
    content: [
      { type: 'text', text: 'The images returned by the tools above, in order:' },
      ...b.images,
    ],
  })
  b.images = []
}

/** Adds one stored message: left out, stood in for by its summary, or sent. */
function addMessage(b: ViewBuilder, m: StoredMessage): void {
  if (m.kind === 'notice') {
    b.diagnostics.omitted++
    return
  }
  if (m.kind === 'summary' && m.covers) return // placed where its range begins
  const by = b.coverage.coveredBy.get(m.seq)
  if (by && !b.placed.has(by)) {
    b.placed.add(by)
    push(b.out, { role: 'user', content: `Summary of the earlier conversation:\n${by.content}` })
  }
  if (by && !b.coverage.kept.has(m.seq)) {
    b.diagnostics.summarized++
    return
  }
  if (m.kind === 'summary') {
    push(b.out, { role: 'user', content: `Summary of the earlier conversation:\n${m.content}` })
    return
  }
  const before = b.out.length
  const last = b.out[before - 1]
  sendMessage(b, m)
  // a message merged into the one before pins that one
  const sent = b.out.length > before ? b.out[b.out.length - 1] : last
  if (m.pinned && sent) b.pinned.add(sent)
}

function sendMessage(b: ViewBuilder, m: StoredMessage): void {
  switch (m.role) {
    case 'system':
      push(b.out, { role: 'system', content: m.content })
      break
    case 'user':
      push(b.out, {
        role: 'user',
        content: userWireContent(
          m,
          b.target.imageInput === true,
          b.target.attachments,
          b.target.attachedImages !== false,
        ),
      })
      break
    case 'assistant':
      pushAssistant(b.out, m, b.target, b.flattened, b.diagnostics)
      break
    case 'tool': {
      const name = m.toolCallId ? b.flattened.get(m.toolCallId) : undefined
      if (name !== undefined) {
        push(b.out, { role: 'user', content: `[Result of tool ${name}]\n${m.content}` })
      } else {
        push(b.out, { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content })
        if (b.target.imageInput) b.images.push(...imageParts(m))
      }
      break
    }
  }
}

/** Every tool call sent keeps exactly its results; pins follow the messages they name. */
function pairCalls(b: ViewBuilder): {
  messages: WireMessage[]
  diagnostics: ViewDiagnostics
  pinned: Set<WireMessage>
} {
  const { pinned } = b
  const paired = pairToolCalls(b.out, (from, to) => {
    if (pinned.delete(from)) pinned.add(to)
  })
  const sent = new Set(paired)
  for (const p of pinned) if (!sent.has(p)) pinned.delete(p)
  return { messages: paired, diagnostics: b.diagnostics, pinned }
}

type WirePart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

function imageParts(m: StoredMessage): WirePart[] {
  return (m.parts ?? []).flatMap((p) =>
    p.type === 'image'
      ? [{ type: 'image_url' as const, image_url: { url: `data:${p.mimeType};base64,${p.data}` } }]
      : [],
  )
}

function pushAssistant(
  out: WireMessage[],
  m: StoredMessage,
  target: ViewTarget,
  flattened: Map<string, string>,
  diagnostics: ViewDiagnostics,
): void {
  const calls = m.toolCalls ?? []
  const sameOrigin = m.provider === target.provider && m.model === target.model
  if (calls.length === 0) {
    // a reply stopped before its first word tells the model nothing
    if (m.content !== '') push(out, { role: 'assistant', content: m.content })
    return
  }
  if (!sameOrigin) {
    const lines = calls.map((c) => {
      flattened.set(c.id, c.name)
      return `[Called tool ${c.name} with arguments ${safeArguments(c.arguments)}]`
    })
    diagnostics.flattenedToolCalls += calls.length
    push(out, { role: 'assistant', content: [m.content, ...lines].filter(Boolean).join('\n') })
    return
  }
  const msg: WireMessage = {
    role: 'assistant',
    content: m.content === '' ? null : m.content,
    tool_calls: calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: safeArguments(c.arguments) },
    })),
  }
  if (m.reasoning) msg['reasoning_content'] = m.reasoning
  if (m.providerExtras) Object.assign(msg, m.providerExtras)
  out.push(msg)
}

/** Arguments as stored, or `{}` when they were not a JSON object. */
function safeArguments(raw: string): string {
  const parsed = parseToolArguments(raw)
  if ('error' in parsed) return '{}'
  const v = parsed.value
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? raw.trim() === ''
      ? '{}'
      : raw
    : '{}'
}

/**
 * Appends a message, merging it into the previous one when both are plain user text
 * (flattened results next to a user message) or plain assistant text (an imported answer
 * written in several messages): many local chat templates insist that roles alternate.
 */
function push(out: WireMessage[], msg: WireMessage): void {
  const prev = out[out.length - 1]
  if (
    prev &&
    (msg.role === 'user' || msg.role === 'assistant') &&
    prev.role === msg.role &&
    typeof prev['content'] === 'string' &&
    typeof msg['content'] === 'string' &&
    !prev['tool_calls'] &&
    !msg['tool_calls']
  ) {
    prev['content'] = `${prev['content']}\n\n${msg['content']}`
    return
  }
  out.push(msg)
}

export function toWireTools(tools: readonly ToolDescriptor[]): WireTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }))
}
