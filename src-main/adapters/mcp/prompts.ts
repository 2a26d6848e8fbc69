/**
 * A server's prompts: listed for the composer's `/server:prompt` commands and fetched into
 * plain-text messages (images and embedded resources become text or notes), size-capped.
 */
import type { Client } from '@modelcontextprotocol/client'
import type {
  McpPrompt,
  McpPromptMessage,
} from '../../../src-preload/contract/resources-and-prompts'
import { truncateForModel } from '../../core/agent/tool-content'
import { label, readPages } from './paged-list'

/** characters of all of one prompt's messages together */
export const MAX_PROMPT_CHARS = 100_000

export function supportsPrompts(client: Client): boolean {
  return client.getServerCapabilities()?.prompts !== undefined
}

export async function listPrompts(
  server: string,
  client: Client,
  signal?: AbortSignal,
): Promise<McpPrompt[]> {
  if (!supportsPrompts(client)) return []
  return readPages(
    async (cursor) => {
      const r = await client.listPrompts(cursor ? { cursor } : undefined, signal ? { signal } : {})
      return { items: r.prompts, nextCursor: r.nextCursor }
    },
    (p): McpPrompt => ({
      server,
      name: label(p.name),
      ...(p.title ? { title: label(p.title) } : {}),
      ...(p.description ? { description: label(p.description) } : {}),
      arguments: (p.arguments ?? []).slice(0, 50).map((a) => ({
        name: label(a.name, 200),
        ...(a.description ? { description: label(a.description) } : {}),
        required: a.required === true,
      })),
    }),
  )
}

export async function getPromptMessages(
  server: string,
  client: Client,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<McpPromptMessage[]> {
  const r = await client.getPrompt({ name, arguments: args }, signal ? { signal } : {})
  let room = MAX_PROMPT_CHARS
  const out: McpPromptMessage[] = []
  for (const m of r.messages.slice(0, 100)) {
    const raw = textOf(m.content as { type: string } & Record<string, unknown>)
    const text = truncateForModel(raw, Math.max(0, room), `${server}: ${name}`)
    room -= Math.min(raw.length, room)
    out.push({ role: m.role === 'assistant' ? 'assistant' : 'user', text })
  }
  return out
}

function textOf(c: { type: string } & Record<string, unknown>): string {
  switch (c.type) {
    case 'text':
      return String(c['text'] ?? '')
    case 'resource': {
      const r = (c['resource'] ?? {}) as Record<string, unknown>
      const head = `[Resource ${String(r['uri'] ?? '')}]`
      return typeof r['text'] === 'string'
        ? `${head}\n${r['text']}`
        : `${head} (binary content, not shown)`
    }
    case 'resource_link':
      return `[Resource ${String(c['uri'] ?? '')}]`
    default:
      return `[${c.type} content, not shown]`
  }
}
