import type { StoredMessage } from '../../../src-preload/contract/dto'

/**
 * A session's history is a tree. The stored history is append-only: every message knows
 * the message it follows (`parentSeq`, null for the first), so editing a message, answering
 * one again or continuing from an earlier one adds a branch and changes nothing stored.
 * The open branch is the path from the first message to a leaf (the session's `leafSeq`);
 * it is what the window shows, what a request sends and what a Markdown export writes.
 *
 * Summaries are not links of the chain: no message follows one. A summary stands in for a
 * range of messages (`covers`), and applies to every branch that holds that range (the
 * messages it covers are the same on all of them).
 */
export type TreeMessage = Pick<StoredMessage, 'seq' | 'parentSeq' | 'kind'> &
  Partial<Pick<StoredMessage, 'covers'>>

/** a message of the chain: anything but a summary */
export function isLink(m: Pick<StoredMessage, 'kind'>): boolean {
  return m.kind !== 'summary'
}

/** The seqs from the first message to `tip` (the tip included), in order. */
export function pathSeqs(all: readonly TreeMessage[], tip: number | null): number[] {
  const bySeq = new Map<number, TreeMessage>()
  for (const m of all) bySeq.set(m.seq, m)
  const out: number[] = []
  const seen = new Set<number>()
  for (let s = tip; s !== null && !seen.has(s);) {
    const m = bySeq.get(s)
    if (!m) break
    seen.add(s)
    out.push(s)
    s = m.parentSeq
  }
  return out.reverse()
}

/** whether a summary stands in for messages of the branch whose seqs are `onPath` */
export function summaryApplies(s: TreeMessage, onPath: ReadonlySet<number>): boolean {
  if (s.covers) return onPath.has(s.covers.from) && onPath.has(s.covers.to)
  // an older summary without a range stands in for everything up to the message it follows
  return s.parentSeq !== null && onPath.has(s.parentSeq)
}

/**
 * The branch that ends at `tip`: its messages from the first, and the summaries that apply
 * to it, in seq order (`all` is in seq order). `tip` null: nothing.
 */
export function branchOf<T extends TreeMessage>(all: readonly T[], tip: number | null): T[] {
  const onPath = new Set(pathSeqs(all, tip))
  return all.filter((m) => (isLink(m) ? onPath.has(m.seq) : summaryApplies(m, onPath)))
}

/** The session's open branch: up to `leafSeq`, else up to the newest message. */
export function openBranch<T extends TreeMessage>(
  all: readonly T[],
  leafSeq: number | null | undefined,
): T[] {
  return branchOf(all, leafSeq ?? newestLink(all))
}

/** the seq of the newest message of the chain (not a summary), or null */
export function newestLink(all: readonly TreeMessage[]): number | null {
  for (let i = all.length - 1; i >= 0; i--) if (isLink(all[i]!)) return all[i]!.seq
  return null
}

/** each message's children in the chain (summaries left out), oldest first, by parent seq */
export function childrenOf(all: readonly TreeMessage[]): Map<number | null, number[]> {
  const out = new Map<number | null, number[]>()
  for (const m of all) {
    if (!isLink(m)) continue
    const list = out.get(m.parentSeq)
    if (list) list.push(m.seq)
    else out.set(m.parentSeq, [m.seq])
  }
  return out
}

/**
 * The leaf a branch through `seq` opens at: the newest message below it (itself when
 * nothing follows it). Switching to a version opens the newest conversation that went on
 * from it.
 */
export function newestLeafUnder(all: readonly TreeMessage[], seq: number): number {
  const children = childrenOf(all)
  let newest = seq
  const stack = [seq]
  while (stack.length > 0) {
    const s = stack.pop()!
    if (s > newest) newest = s
    for (const c of children.get(s) ?? []) stack.push(c)
  }
  return newest
}

/** Where a message stands among the versions at its point: its siblings, oldest first. */
export interface Versions {
  /** 0-based */
  index: number
  /** the seqs of every version at this point, oldest first */
  seqs: number[]
}

/** the versions at `seq`'s point, or null when it has none besides itself */
export function versionsAt(
  children: ReadonlyMap<number | null, readonly number[]>,
  m: Pick<StoredMessage, 'seq' | 'parentSeq'>,
): Versions | null {
  const seqs = children.get(m.parentSeq) ?? []
  if (seqs.length < 2) return null
  return { index: seqs.indexOf(m.seq), seqs: [...seqs] }
}

/**
 * The parents of a history written before messages knew theirs (schema v9 and older): each
 * message follows the message of the chain before it, except a user message that replaced
 * an earlier one (`supersedes`: regenerate, edit, retry), which follows what that one
 * followed; a summary follows the message before it but starts no chain. `messages` in
 * seq order; returns seq → parent seq and the leaf of the newest path.
 */
export function deriveParents(
  messages: readonly Pick<StoredMessage, 'seq' | 'kind' | 'supersedes'>[],
): { parents: Map<number, number | null>; leaf: number | null } {
  const parents = new Map<number, number | null>()
  let previous: number | null = null
  for (const m of messages) {
    if (!isLink(m)) {
      parents.set(m.seq, previous)
      continue
    }
    const replaced = m.supersedes !== null ? parents.get(m.supersedes) : undefined
    parents.set(m.seq, replaced !== undefined ? replaced : previous)
    previous = m.seq
  }
  return { parents, leaf: previous }
}

/** One page of a branch, from its end backwards (`branchPage`). */
export interface BranchPage {
  /** the seqs of the page's messages (summaries that apply included), in seq order */
  seqs: number[]
  /** the branch has messages before the page */
  hasMore: boolean
  /**
   * For each message of the branch up to the page's end that has other versions (other
   * messages that follow the message it follows): every version's seq, oldest first.
   */
  versions: Record<number, number[]>
}

/**
 * The open branch a page at a time: the last `limit` messages of the branch that ends at
 * `leafSeq` (else the newest message), or, with `beforeSeq`, the last `limit` of the branch
 * that leads to the message `beforeSeq` (a message's parent always has a smaller seq).
 */
export function branchPage(
  all: readonly TreeMessage[],
  leafSeq: number | null | undefined,
  page: { limit: number; beforeSeq?: number },
): BranchPage {
  let list: TreeMessage[]
  if (page.beforeSeq !== undefined) {
    const before = page.beforeSeq
    const at = all.find((m) => m.seq === before)
    list = at ? branchOf(all, at.parentSeq).filter((m) => m.seq < before) : []
  } else {
    list = branchOf(all, leafSeq ?? newestLink(all))
  }
  const limit = Math.max(0, page.limit)
  const start = Math.max(0, list.length - limit)
  return {
    seqs: list.slice(start).map((m) => m.seq),
    hasMore: start > 0,
    versions: branchVersions(all, list),
  }
}

/** the versions at each message of `branch` that has some (see `BranchPage.versions`) */
export function branchVersions(
  all: readonly TreeMessage[],
  branch: readonly TreeMessage[],
): Record<number, number[]> {
  const children = childrenOf(all)
  const out: Record<number, number[]> = {}
  for (const m of branch) {
    if (!isLink(m)) continue
    const seqs = children.get(m.parentSeq) ?? []
    if (seqs.length > 1) out[m.seq] = seqs
  }
  return out
}

/**
 * Where the open branch ends once the message `seq` is to be shown: the current leaf when
 * the message is on the open branch already, else the newest message that followed it.
 * Null when there is no such message or it is a summary.
 */
export function leafShowing(
  all: readonly TreeMessage[],
  leafSeq: number | null | undefined,
  seq: number,
): number | null {
  const target = all.find((m) => m.seq === seq)
  if (!target || !isLink(target)) return null
  const leaf = leafSeq ?? newestLink(all)
  if (leaf !== null && pathSeqs(all, leaf).includes(seq)) return leaf
  return newestLeafUnder(all, seq)
}
