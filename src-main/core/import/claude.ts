/**
 * Claude's data export (`conversations.json`): an array of conversations (`uuid`, `name`,
 * `created_at`, `updated_at`), each with `chat_messages` in order. A message has its
 * `sender` (human, assistant), its `text` and, in newer exports, `content` blocks (text,
 * thinking, tool_use, tool_result), `attachments` with the text Claude extracted from them
 * (`extracted_content`), `files` (named only) and `parent_message_uuid`, which makes the
 * conversation a tree (the root's parent is the zero uuid). The open branch ends at
 * `current_leaf_message_uuid` when the export says, else at the last message.
 * tests/fixtures/import/README.md says where this shape comes from.
 */
import type { NewMessage } from '../../../src-preload/contract/dto'
import { fence } from '../markdown-fence'
import {
  isoTime,
  isRecord,
  keptAt,
  MalformedConversation,
  orderTree,
  str,
  type ImportedConversation,
  type TreeNode,
} from './conversation'

type Rec = Record<string, unknown>

/** the parent of a first message */
const ROOT = '00000000-0000-4000-8000-000000000000'

function toolInput(input: unknown): string {
  if (input === undefined) return ''
  try {
    return fence(JSON.stringify(input, null, 2), 'json')
  } catch {
    return ''
  }
}

function toolResult(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((c) => (isRecord(c) ? (str(c.text) ?? '') : typeof c === 'string' ? c : ''))
    .filter(Boolean)
    .join('\n\n')
}

/** the text and the reasoning of a message's content blocks */
function blocks(content: unknown[]): { text: string; reasoning: string } {
  const text: string[] = []
  const reasoning: string[] = []
  for (const b of content) {
    if (!isRecord(b)) continue
    const name = str(b.name) ?? 'a tool'
    switch (str(b.type)) {
      case 'text':
        if (str(b.text)) text.push(str(b.text)!)
        break
      case 'thinking':
        if (str(b.thinking)) reasoning.push(str(b.thinking)!)
        break
      case 'tool_use':
        text.push([`[Used ${name}]`, toolInput(b.input)].filter(Boolean).join('\n\n'))
        break
      case 'tool_result': {
        const result = toolResult(b.content)
        text.push(
          `[${name}${b.is_error === true ? ' failed' : ' result'}]${result ? `\n\n${fence(result)}` : ''}`,
        )
        break
      }
      default:
        break
    }
  }
  return { text: text.join('\n\n'), reasoning: reasoning.join('\n\n') }
}

/** attachments with their extracted text; files (not in the export) named */
function attached(m: Rec): string {
  const out: string[] = []
  for (const a of Array.isArray(m.attachments) ? m.attachments : []) {
    if (!isRecord(a)) continue
    const name = str(a.file_name) ?? 'a file'
    const extracted = str(a.extracted_content)
    out.push(
      extracted
        ? `[Attached: ${name}]\n\n${fence(extracted)}`
        : `[Attached: ${name} (its text is not in the export)]`,
    )
  }
  for (const f of Array.isArray(m.files) ? m.files : []) {
    if (!isRecord(f)) continue
    out.push(`[File: ${str(f.file_name) ?? str(f.file_uuid) ?? 'a file'} (not in the export)]`)
  }
  return out.join('\n\n')
}

function chatMessage(m: Rec): NewMessage | null {
  const sender = str(m.sender)
  const role =
    sender === 'human' || sender === 'user' ? 'user' : sender === 'assistant' ? 'assistant' : null
  if (!role) return null
  const fromBlocks = Array.isArray(m.content) ? blocks(m.content) : { text: '', reasoning: '' }
  const body = fromBlocks.text || (str(m.text) ?? '')
  const content = [body, attached(m)].filter(Boolean).join('\n\n')
  if (!content.trim()) return null
  return role === 'assistant' && fromBlocks.reasoning
    ? { role, content, reasoning: fromBlocks.reasoning }
    : { role, content }
}

export function readClaudeConversation(v: Rec): ImportedConversation {
  const id = str(v.uuid)
  if (!id) throw new MalformedConversation('it has no conversation id (uuid)')
  if (!Array.isArray(v.chat_messages))
    throw new MalformedConversation('its messages (chat_messages) are missing')
  const list = v.chat_messages
  const tree = list.every((m) => isRecord(m) && typeof m.parent_message_uuid === 'string')
  const times = new Map<string, number | null>()
  const nodes: TreeNode<NewMessage>[] = list.map((m, i) => {
    if (!isRecord(m)) throw new MalformedConversation(`its message ${i + 1} is not an object`)
    const nodeId = str(m.uuid) ?? `${id}:${i}`
    const previous =
      i > 0 && isRecord(list[i - 1]) ? (str((list[i - 1] as Rec).uuid) ?? `${id}:${i - 1}`) : null
    const parent = tree ? str(m.parent_message_uuid) : previous
    times.set(nodeId, isoTime(m.created_at))
    return {
      id: nodeId,
      parent: parent === ROOT ? null : parent,
      // in the export's order when the times are equal or missing
      createdAt: isoTime(m.created_at) ?? i,
      value: chatMessage(m),
    }
  })
  const last = nodes.at(-1)?.id ?? null
  return {
    source: 'claude',
    sourceId: id,
    title: str(v.name) ?? '',
    createdAt: isoTime(v.created_at),
    updatedAt: isoTime(v.updated_at),
    model: str(v.model),
    messages: orderTree(nodes).map(({ node, parent }) => ({
      sourceId: node.id,
      parentSourceId: parent,
      createdAt: times.get(node.id) ?? null,
      message: node.value!,
    })),
    leafSourceId: keptAt(nodes, str(v.current_leaf_message_uuid) ?? last),
  }
}
