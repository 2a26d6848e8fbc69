/**
 * A conversation read from another app's export (ChatGPT, Claude) or from Cairn's own JSON
 * export, as the store writes it: its messages in an order where each one's parent comes
 * before it, each with the id it had there (`sourceId`), so that importing the same export
 * again adds nothing and a newer one adds only what is new.
 */
import type { ImportSource, NewMessage } from '../../../src-preload/contract/dto'

export interface ImportedMessage {
  /** the message's id in the export */
  sourceId: string
  /** the id of the message it follows there; null: the first */
  parentSourceId: string | null
  /** when it was written there (ms), or null when the export does not say */
  createdAt: number | null
  /** what is stored; its `parentSeq` and `covers` are set by the store from the ids */
  message: NewMessage
  /** summaries (Cairn's own export): the first and last message they stand in for */
  covers?: { from: string; to: string }
}

export interface ImportedConversation {
  source: ImportSource
  /** the conversation's id in the export */
  sourceId: string
  title: string
  createdAt: number | null
  updatedAt: number | null
  /** the model the conversation ran with, where the export records one */
  model: string | null
  /** Cairn's own export: the rest of the session's settings */
  provider?: string | null
  systemPrompt?: string | null
  /** parents before children */
  messages: ImportedMessage[]
  /** where the open branch ends (ChatGPT's `current_node`), or null: the newest message */
  leafSourceId: string | null
}

/**
 * One conversation of an export that cannot be read (not an object, no messages where the
 * format puts them). The import names it by its position and title, skips it and goes on.
 */
export class MalformedConversation extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'MalformedConversation'
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

/** seconds since the epoch (ChatGPT), an ISO date (Claude) or ms (Cairn) → ms, or null */
export function seconds(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v * 1000) : null
}

export function isoTime(v: unknown): number | null {
  if (typeof v !== 'string') return null
  const t = Date.parse(v)
  return Number.isFinite(t) ? t : null
}

/** what a conversation is called in a report: its title, else its id */
export function conversationTitle(v: unknown): string {
  if (!isRecord(v)) return ''
  return (
    str(v.title) ?? str(v.name) ?? str((v.session as { title?: unknown } | undefined)?.title) ?? ''
  )
}

export interface TreeNode<T> {
  id: string
  parent: string | null
  createdAt: number | null
  /** null: the node is not kept (an empty or hidden message); its children go to its parent */
  value: T | null
}

/**
 * The nodes kept, parents before children (siblings oldest first), each with the nearest
 * kept ancestor as its parent. A parent that is not among the nodes makes a root; a cycle
 * is broken where it is met. Iterative: a conversation of 100 000 messages is one long chain.
 */
export function orderTree<T>(nodes: TreeNode<T>[]): { node: TreeNode<T>; parent: string | null }[] {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const children = new Map<string | null, TreeNode<T>[]>()
  for (const n of nodes) {
    const parent = n.parent !== null && byId.has(n.parent) && n.parent !== n.id ? n.parent : null
    const list = children.get(parent)
    if (list) list.push(n)
    else children.set(parent, [n])
  }
  const oldestFirst = (a: TreeNode<T>, b: TreeNode<T>): number =>
    (a.createdAt ?? 0) - (b.createdAt ?? 0)
  const out: { node: TreeNode<T>; parent: string | null }[] = []
  const seen = new Set<string>()
  // [node, the kept ancestor it hangs from]
  const stack: [TreeNode<T>, string | null][] = []
  const push = (parentId: string | null, keptAncestor: string | null): void => {
    const kids = [...(children.get(parentId) ?? [])].sort(oldestFirst)
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, keptAncestor])
  }
  push(null, null)
  while (stack.length > 0) {
    const [node, ancestor] = stack.pop()!
    if (seen.has(node.id)) continue
    seen.add(node.id)
    if (node.value !== null) out.push({ node, parent: ancestor })
    push(node.id, node.value !== null ? node.id : ancestor)
  }
  return out
}

/** the nearest kept node at or above `id` (a leaf that is not kept opens its parent's branch) */
export function keptAt<T>(nodes: TreeNode<T>[], id: string | null): string | null {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const seen = new Set<string>()
  let at = id
  while (at !== null && !seen.has(at)) {
    seen.add(at)
    const n = byId.get(at)
    if (!n) return null
    if (n.value !== null) return n.id
    at = n.parent
  }
  return null
}
