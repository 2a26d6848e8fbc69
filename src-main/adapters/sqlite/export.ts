/**
 * A session as a file: Markdown for people (the open branch, as the window shows it), JSON
 * for programs and for importing back: the whole tree (every message with the one it
 * follows) and the open branch (`session.leafSeq`), so that an import gives the same chat.
 * What the Markdown export did not write itself goes through `markdown-text.ts`: no HTML,
 * no heading of its own, code kept as code.
 */
import type {
  ContentPart,
  SessionRecord,
  StoredMessage,
  TodoItem,
  ToolCallRecord,
} from '../../../src-preload/contract/dto'
import { openBranch } from '../../core/agent/history-tree'
import { describeAttachment } from '../../core/attachments/describe'
import { fence } from '../../core/markdown-fence'
import type { ExportAttachments, ExportFormat } from '../../core/service-ports'
import { codeSpan, inlineText, markdownText } from './markdown-text'

/** what a Cairn JSON export says it is (`cairn sessions import` knows it by this) */
export const CAIRN_EXPORT_FORMAT = 'cairn-session'

/**
 * JSON embeds each attached file once (base64, with a document's text) under
 * `attachments`, by id, so the file is complete on its own; Markdown links them where
 * `attachments.link` says (a folder beside the file), else names them.
 */
export function exportSessionAs(
  format: ExportFormat,
  session: SessionRecord,
  messages: StoredMessage[],
  attachments: ExportAttachments = {},
): string {
  return format === 'json'
    ? `${JSON.stringify(
        {
          format: CAIRN_EXPORT_FORMAT,
          version: 2,
          session,
          messages,
          ...embedded(messages, attachments),
        },
        null,
        2,
      )}\n`
    : exportMarkdown(session, messages, attachments)
}

function embedded(
  messages: StoredMessage[],
  { embed }: ExportAttachments,
): { attachments?: Record<string, unknown> } {
  if (!embed) return {}
  const out: Record<string, unknown> = {}
  for (const m of messages)
    for (const p of m.parts ?? [])
      if (p.type === 'attachment' && !(p.id in out)) out[p.id] = embed(p) ?? { missing: true }
  return Object.keys(out).length > 0 ? { attachments: out } : {}
}

/** a link's text and target, safe inside Markdown (brackets, parentheses and spaces escaped) */
function mdLink(text: string, target: string): string {
  const label = text.replace(/[\\[\]*_`<>]/g, '\\$&')
  return `[${label}](<${target.replace(/[<>\n]/g, '')}>)`
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

function prettyArguments(args: string): { text: string; lang: string } {
  try {
    return { text: JSON.stringify(JSON.parse(args) as unknown, null, 2), lang: 'json' }
  } catch {
    return { text: args, lang: '' }
  }
}

function toolCall(call: ToolCallRecord): string {
  const { text, lang } = prettyArguments(call.arguments)
  return `**Tool call** ${codeSpan(call.name)} (id ${codeSpan(call.id)})\n\n${fence(text, lang)}`
}

/** images are named, never inlined; attached files are linked where they were written */
function partsNote(parts: ContentPart[] | null, attachments: ExportAttachments): string {
  if (!parts) return ''
  const notes = parts.flatMap((p) => {
    if (p.type === 'image') return [`_[image: ${inlineText(p.mimeType)}]_`]
    if (p.type === 'resource_link' || p.type === 'resource')
      return [`_[${p.type}: ${codeSpan(p.uri)}]_`]
    if (p.type === 'attachment') {
      const link = attachments.link?.(p) ?? null
      const facts = inlineText(describeAttachment(p).slice(p.name.length).trim())
      if (link === null) return [`_Attached: ${inlineText(describeAttachment(p))}_`]
      return [`${p.kind === 'image' ? '!' : ''}${mdLink(p.name, link)} ${facts}`]
    }
    return []
  })
  return notes.join('\n\n')
}

function heading(m: StoredMessage): string {
  const who =
    m.kind === 'summary'
      ? 'Summary'
      : m.role === 'tool'
        ? `Tool result${m.toolName ? ` · ${inlineText(m.toolName)}` : ''}`
        : m.role[0]!.toUpperCase() + m.role.slice(1)
  const tags = [
    m.role === 'assistant' && m.model ? inlineText(m.model) : '',
    m.status !== 'complete' ? m.status : '',
    m.failureKind ? `failure: ${m.failureKind}` : '',
  ].filter(Boolean)
  return `## ${m.seq}. ${who}${tags.length ? ` (${tags.join(', ')})` : ''}`
}

function messageBlock(m: StoredMessage, attachments: ExportAttachments): string {
  if (m.kind === 'notice')
    return `> **Notice** (${iso(m.createdAt)}): ${markdownText(m.content).replace(/\n/g, '\n> ')}`
  const out: string[] = [heading(m), `_${iso(m.createdAt)}_`]
  if (m.reasoning) {
    out.push(
      `<details>\n<summary>Reasoning</summary>\n\n${markdownText(m.reasoning)}\n\n</details>`,
    )
  }
  if (m.role === 'tool') {
    if (m.toolCallId) out.push(`Result of \`${m.toolCallId}\`:`)
    out.push(fence(m.content))
  } else if (m.content) {
    out.push(markdownText(m.content))
  }
  const note = partsNote(m.parts, attachments)
  if (note) out.push(note)
  for (const call of m.toolCalls ?? []) out.push(toolCall(call))
  return out.join('\n\n')
}

export function exportMarkdown(
  session: SessionRecord,
  stored: StoredMessage[],
  attachments: ExportAttachments = {},
): string {
  const messages = openBranch(stored, session.leafSeq)
  const earlier = stored.length - messages.length
  const meta = [
    `- Session: ${codeSpan(session.id)}`,
    `- Created: ${iso(session.createdAt)}`,
    `- Updated: ${iso(session.updatedAt)}`,
    session.provider ? `- Provider: ${inlineText(session.provider)}` : '',
    session.model ? `- Model: ${inlineText(session.model)}` : '',
    session.workspace ? `- Workspace: ${codeSpan(session.workspace)}` : '',
    `- Tokens: ${session.usage.inputTokens} in, ${session.usage.outputTokens} out`,
    `- Messages: ${messages.length}`,
    earlier > 0 ? `- Messages on other branches, left out: ${earlier}` : '',
  ].filter(Boolean)
  const parts = [`# ${inlineText(session.title) || 'Untitled session'}`, meta.join('\n')]
  if (session.systemPrompt) {
    parts.push(
      `<details>\n<summary>System prompt</summary>\n\n${markdownText(session.systemPrompt)}\n\n</details>`,
    )
  }
  if (session.todos.length > 0) {
    const item = (t: TodoItem): string =>
      `- [${t.status === 'completed' ? 'x' : ' '}] ${inlineText(t.content)}${t.status === 'in_progress' ? ' _(in progress)_' : ''}`
    parts.push(`**Todo**\n\n${session.todos.map(item).join('\n')}`)
  }
  parts.push('---')
  for (const m of messages) parts.push(messageBlock(m, attachments))
  return `${parts.join('\n\n')}\n`
}
