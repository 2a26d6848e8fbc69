/**
 * ChatGPT's data export (`conversations.json`): an array of conversations, each a tree of
 * messages in `mapping` (node id → { message, parent, children }) whose `current_node` is
 * where the branch the user last saw ends. Messages hold `content` by `content_type`: text,
 * multimodal text (text and image pointers), code the model ran and its output, browsing
 * results and quotes. Hidden system scaffolding, custom instructions and the model's
 * thought summaries are not kept; what cannot be brought (images, files) is named in a
 * placeholder. tests/fixtures/import/README.md says where this shape comes from.
 */
import type { NewMessage } from '../../../src-preload/contract/dto'
import {
  isRecord,
  keptAt,
  MalformedConversation,
  orderTree,
  seconds,
  str,
  type ImportedConversation,
  type TreeNode,
} from './conversation'
import { fence } from '../markdown-fence'

type Rec = Record<string, unknown>

/** an image or audio pointer of a multimodal message, as a placeholder naming it */
function partText(part: unknown): string {
  if (typeof part === 'string') return part
  if (!isRecord(part)) return ''
  const type = str(part.content_type) ?? ''
  if (type === 'audio_transcription') return str(part.text) ?? ''
  if (type === 'image_asset_pointer') {
    const pointer = str(part.asset_pointer) ?? ''
    const name = pointer.replace(/^[a-z-]+:\/\//, '')
    const size =
      typeof part.width === 'number' && typeof part.height === 'number'
        ? `, ${part.width}×${part.height}`
        : ''
    return `[Image: ${name || 'an image'}${size} (not in the export)]`
  }
  if (type.endsWith('_asset_pointer'))
    return `[${type.replace(/_asset_pointer$/, '')} (not in the export)]`
  return str(part.text) ?? ''
}

function joinParts(parts: unknown): string {
  return Array.isArray(parts) ? parts.map(partText).filter(Boolean).join('\n\n') : ''
}

/** the text of one message's content, by its type ('' when nothing is worth keeping) */
function contentText(content: Rec, recipient: string): string {
  const type = str(content.content_type) ?? 'text'
  switch (type) {
    case 'text':
    case 'multimodal_text':
      return joinParts(content.parts)
    case 'code': {
      const code = str(content.text) ?? ''
      const lang = str(content.language)
      const to = recipient && recipient !== 'all' ? recipient : 'a tool'
      return code ? `[Sent to ${to}]\n\n${fence(code, lang && lang !== 'unknown' ? lang : '')}` : ''
    }
    case 'execution_output':
      return str(content.text) ? fence(str(content.text)!) : ''
    case 'tether_browsing_display':
      return [str(content.summary), str(content.result)].filter(Boolean).join('\n\n')
    case 'tether_quote':
      return [str(content.title), str(content.url), str(content.text)].filter(Boolean).join('\n\n')
    case 'system_error':
      return `[Error${str(content.name) ? `: ${str(content.name)}` : ''}] ${str(content.text) ?? ''}`.trim()
    case 'user_editable_context':
    case 'model_editable_context':
    case 'thoughts':
    case 'reasoning_recap':
      return ''
    default:
      return joinParts(content.parts) || (str(content.text) ?? '')
  }
}

/** the files a message carried (`metadata.attachments`), as placeholders naming them */
function attachmentNotes(metadata: Rec | null): string {
  const list = metadata && Array.isArray(metadata.attachments) ? metadata.attachments : []
  return list
    .filter(isRecord)
    .map((a) => `[File: ${str(a.name) ?? str(a.id) ?? 'a file'} (not in the export)]`)
    .join('\n')
}

/** a node's message as Cairn stores it, or null when it is not kept */
function nodeMessage(message: unknown): NewMessage | null {
  if (!isRecord(message)) return null
  const author = isRecord(message.author) ? message.author : {}
  const role = str(author.role)
  const metadata = isRecord(message.metadata) ? message.metadata : null
  if (metadata?.is_visually_hidden_from_conversation === true) return null
  if (role !== 'user' && role !== 'assistant' && role !== 'tool') return null
  const content = isRecord(message.content) ? message.content : {}
  const text = [contentText(content, str(message.recipient) ?? ''), attachmentNotes(metadata)]
    .filter(Boolean)
    .join('\n\n')
  if (!text.trim()) return null
  if (role === 'user') return { role: 'user', content: text }
  // a tool's output (code interpreter, browsing) is text the assistant's side wrote
  const label = role === 'tool' ? `[${str(author.name) ?? 'Tool'} output]\n\n` : ''
  return {
    role: 'assistant',
    content: `${label}${text}`,
    model: str(metadata?.model_slug) ?? null,
  }
}

export function readChatGptConversation(v: Rec): ImportedConversation {
  const id = str(v.conversation_id) ?? str(v.id)
  if (!id) throw new MalformedConversation('it has no conversation id')
  if (!isRecord(v.mapping)) throw new MalformedConversation('its messages (mapping) are missing')
  const nodes: TreeNode<NewMessage>[] = []
  for (const [key, node] of Object.entries(v.mapping)) {
    if (!isRecord(node)) throw new MalformedConversation(`its message ${key} is not an object`)
    const message = isRecord(node.message) ? node.message : null
    nodes.push({
      id: str(node.id) ?? key,
      parent: str(node.parent),
      createdAt: seconds(message?.create_time),
      value: nodeMessage(message),
    })
  }
  const ordered = orderTree(nodes)
  // the conversation's model, else the one that wrote its newest answer
  const answered = ordered.map(({ node }) => node.value!.model).filter(Boolean)
  return {
    source: 'chatgpt',
    sourceId: id,
    title: str(v.title) ?? '',
    createdAt: seconds(v.create_time),
    updatedAt: seconds(v.update_time),
    model: str(v.default_model_slug) ?? answered.at(-1) ?? null,
    messages: ordered.map(({ node, parent }) => ({
      sourceId: node.id,
      parentSourceId: parent,
      createdAt: node.createdAt,
      message: node.value!,
    })),
    leafSourceId: keptAt(nodes, str(v.current_node)),
  }
}
