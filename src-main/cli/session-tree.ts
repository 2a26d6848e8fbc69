/**
 * `cairn sessions show <id> --tree`: a session's whole tree, one line a message with its
 * number, branches drawn where a message has more than one follower, the open branch
 * marked. Summaries are left out (they are not links of the tree).
 */
import type { StoredMessage } from '../../src-preload/contract/dto'
import { childrenOf, pathSeqs } from '../core/agent/history-tree'
import { stripControls } from './terminal-text'

/** characters of a message shown on its line */
const PREVIEW = 60

function preview(m: StoredMessage, raw: boolean): string {
  const calls = (m.toolCalls ?? []).map((c) => `→ ${c.name}`).join(' ')
  const text = (m.content || calls || (m.parts?.length ? '(attachments)' : '')).replace(/\s+/g, ' ')
  const cut = text.length > PREVIEW ? `${text.slice(0, PREVIEW - 1)}…` : text
  return raw ? cut : stripControls(cut)
}

/** The tree's lines. `leafSeq`: where the open branch ends (its messages get a `*`). */
export function treeLines(
  messages: readonly StoredMessage[],
  leafSeq: number | null,
  raw = false,
): string[] {
  const bySeq = new Map(messages.map((m) => [m.seq, m]))
  const children = childrenOf(messages)
  const open = new Set(pathSeqs(messages, leafSeq))
  const lines: string[] = []
  const line = (prefix: string, seq: number): void => {
    const m = bySeq.get(seq)!
    const mark = open.has(seq) ? '*' : ' '
    const end = seq === leafSeq ? '  (open)' : ''
    lines.push(`${prefix}${mark}[${seq}] ${m.role}: ${preview(m, raw)}${end}`)
  }
  // a stack of [seq, the prefix of its line, the prefix of what follows it]
  const stack: [number, string, string][] = []
  const push = (kids: readonly number[], prefix: string): void => {
    if (kids.length === 1) {
      stack.push([kids[0]!, prefix, prefix])
      return
    }
    for (let i = kids.length - 1; i >= 0; i--) {
      const last = i === kids.length - 1
      stack.push([kids[i]!, `${prefix}${last ? '└─ ' : '├─ '}`, `${prefix}${last ? '   ' : '│  '}`])
    }
  }
  push(children.get(null) ?? [], '')
  while (stack.length > 0) {
    const [seq, own, below] = stack.pop()!
    line(own, seq)
    push(children.get(seq) ?? [], below)
  }
  return lines
}
