/**
 * Large blocks in parts: a code block's code in runs of lines, a table's header and then
 * runs of rows, a tight list's top-level items. Each part is rendered on its own, so a
 * block that grows at the end of a streaming answer re-renders only its last part, and is
 * lexed again only from the start of that part (`Carry`), not from its own start.
 *
 * Pure, like `blocks.ts`, which uses it. The parts of a block are the same whether it was
 * lexed whole or streamed in (tests/renderer/markdown-blocks.test.ts checks it for every
 * prefix): code is cut every `codeLines` lines of its code, a table every `tableRows` rows
 * after its first two lines, a list at each item.
 */
import type { Token, Tokens } from 'marked'

export interface PartSizes {
  codeLines: number
  tableRows: number
}

export const PART_SIZES: PartSizes = { codeLines: 64, tableRows: 8 }

/** How a list with parts starts (its items are rendered one by one, inside one list). */
export interface ListInfo {
  ordered: boolean
  /** the first item's number (1 for a bullet list) */
  start: number
  /** an item is a task (`- [ ]`): the list gets the task list's class */
  task: boolean
}

/** What a block gets from its parts. */
export interface BlockParts {
  parts: readonly string[]
  list: ListInfo | null
}

/**
 * A block that is still growing at the end of the text, lexed again from `restStart` (with
 * `context` before it) rather than from its own start: what is before `restStart` is sealed.
 */
export interface Carry {
  type: 'code' | 'table' | 'list'
  /** where the block starts in the text */
  start: number
  /** where its unsealed end starts */
  restStart: number
  /** the block's text before `restStart` */
  sealedRaw: string
  /** its parts before `restStart` */
  parts: readonly string[]
  /** what is lexed before the rest: a fence's opening line, a table's first two lines, '' */
  context: string
  /** code: the code of the sealed parts */
  code: string
  lang: string
  /** lists: how it starts, and its items' marker (`-`, `*`, `+`, `.` or `)`) */
  list: (ListInfo & { marker: string }) | null
}

const FENCE_OPENER = /^ {0,3}(?:`{3,}|~{3,})[^\n]*\n/
const LIST_MARKER = /^ {0,3}(?:([-+*])|\d{1,9}([.)]))/

const trimEnd = (s: string): string => s.replace(/\n+$/, '')

/** `s` without its final newlines, reading only those (a regex would scan all of `s`) */
function trimEndOf(s: string): string {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--
  return end === s.length ? s : s.slice(0, end)
}

/** the text of a carried block: what is sealed, then the body lexed now */
function sourceOf(carry: Carry, body: string): string {
  const b = trimEnd(body)
  return b === '' ? trimEndOf(carry.sealedRaw) : carry.sealedRaw + b
}

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size))
  return out
}

/** code in runs of `size` lines; every run but the last ends with its newline */
export function codeParts(code: string, size: number): string[] {
  const lines = code.split('\n')
  if (lines.length <= size) return [code]
  const runs = chunks(lines, size)
  return runs.map((run, i) => (i < runs.length - 1 ? `${run.join('\n')}\n` : run.join('\n')))
}

/** the rows of a table's text after its first two lines: non-empty lines up to a blank one */
function rowLines(body: string): { complete: string[]; last: string | null } {
  const lines = body.split('\n')
  const last = lines.pop() ?? ''
  const complete: string[] = []
  for (const l of lines) {
    if (l.trim() === '') return { complete, last: null }
    complete.push(l)
  }
  return { complete, last: last.trim() === '' ? null : last }
}

const rowParts = (rows: readonly string[], size: number): string[] =>
  chunks(rows, size).map((run) => run.join('\n'))

function markerOf(itemRaw: string): string | null {
  const m = LIST_MARKER.exec(itemRaw)
  return m ? (m[1] ?? m[2] ?? null) : null
}

/** a list whose items are all one after the other, no blank line anywhere in it */
function tight(list: Tokens.List, raw: string): boolean {
  return !list.loose && !trimEnd(raw).includes('\n\n') && list.items.length > 0
}

/** The parts of a block lexed whole; null for a block that is rendered in one piece. */
export function wholeParts(token: Token, source: string, sizes: PartSizes): BlockParts | null {
  if (token.type === 'code') {
    return { parts: codeParts((token as Tokens.Code).text, sizes.codeLines), list: null }
  }
  if (token.type === 'table') {
    const lines = source.split('\n')
    if (lines.length < 2) return null
    const head = `${lines[0]}\n${lines[1]}`
    return { parts: [head, ...rowParts(lines.slice(2), sizes.tableRows)], list: null }
  }
  if (token.type === 'list') {
    const list = token as Tokens.List
    if (!tight(list, token.raw)) return null
    return {
      parts: list.items.map((item) => trimEnd(item.raw)),
      list: {
        ordered: list.ordered,
        start: typeof list.start === 'number' ? list.start : 1,
        task: list.items.some((item) => item.task),
      },
    }
  }
  return null
}

/**
 * The carry of a block lexed from its start at `offset`, before anything of it is sealed;
 * null when it cannot be continued in parts (an indented code block, a loose list, a table
 * or fence whose first lines are not complete yet).
 */
export function openCarry(token: Token, offset: number): Carry | null {
  const base = { start: offset, parts: [] as string[], code: '', lang: '', list: null }
  if (token.type === 'code') {
    const opener = FENCE_OPENER.exec(token.raw)?.[0]
    if (!opener) return null
    const lang = ((token as Tokens.Code).lang ?? '').trim().split(/\s+/, 1)[0] ?? ''
    return {
      ...base,
      type: 'code',
      restStart: offset + opener.length,
      sealedRaw: opener,
      context: opener,
      lang,
    }
  }
  if (token.type === 'table') {
    const first = token.raw.indexOf('\n')
    const second = first < 0 ? -1 : token.raw.indexOf('\n', first + 1)
    if (second < 0) return null
    const context = token.raw.slice(0, second + 1)
    return {
      ...base,
      type: 'table',
      restStart: offset + context.length,
      sealedRaw: context,
      parts: [context.slice(0, -1)],
      context,
    }
  }
  if (token.type === 'list') {
    const list = token as Tokens.List
    const marker = list.items[0] ? markerOf(list.items[0].raw) : null
    if (marker === null || !tight(list, token.raw)) return null
    return {
      ...base,
      type: 'list',
      restStart: offset,
      sealedRaw: '',
      context: '',
      list: {
        ordered: list.ordered,
        start: typeof list.start === 'number' ? list.start : 1,
        task: false,
        marker,
      },
    }
  }
  return null
}

/** A block continued in parts: its fields, and the carry for the next text. */
export interface Extended {
  /** its text, without trailing newlines */
  source: string
  code: string
  parts: readonly string[]
  list: ListInfo | null
  /** everything before its `restStart` is sealed */
  carry: Carry
}

/**
 * Continues `carry` with `token`, the first token lexed from `carry.context` + the rest of
 * the text. `ended`: a list that the rest does not continue (another marker) ended where
 * the rest starts. null: the rest is not what the block's parts assumed (a list that turns
 * loose): the caller lexes the block again from its start.
 */
export function extendCarry(
  carry: Carry,
  token: Token | undefined,
  sizes: PartSizes,
): Extended | 'ended' | null {
  if (!token || !token.raw.startsWith(carry.context)) return null
  const body = token.raw.slice(carry.context.length)
  switch (carry.type) {
    case 'code':
      return token.type === 'code' ? extendCode(carry, token as Tokens.Code, body, sizes) : null
    case 'table':
      return token.type === 'table' ? extendTable(carry, body, sizes) : null
    case 'list':
      if (token.type !== 'list' || markerOf(token.raw) !== carry.list!.marker) {
        return carry.parts.length > 0 ? 'ended' : null
      }
      return extendList(carry, token as Tokens.List, body)
  }
}

/** The block a carry holds on its own (a list that ended where the rest starts). */
export function carriedBlock(carry: Carry): Omit<Extended, 'carry'> {
  return {
    source: trimEndOf(carry.sealedRaw),
    code: carry.code,
    parts: carry.parts,
    list: listInfo(carry),
  }
}

function listInfo(carry: Carry, task = false): ListInfo | null {
  const l = carry.list
  return l ? { ordered: l.ordered, start: l.start, task: l.task || task } : null
}

/** `carry` with `raw` (the start of the unsealed body) and `parts` sealed too */
function seal(carry: Carry, raw: string, parts: readonly string[]): Carry {
  return {
    ...carry,
    restStart: carry.restStart + raw.length,
    sealedRaw: carry.sealedRaw + raw,
    parts: [...carry.parts, ...parts],
  }
}

function extendCode(carry: Carry, token: Tokens.Code, body: string, sizes: PartSizes): Extended {
  const open = codeParts(token.text, sizes.codeLines)
  // every run of lines but the last is sealed (the last may still change at its end); the
  // body's lines are the code's, one for one
  const sealed = open.slice(0, -1)
  let at = 0
  for (let n = sealed.length * sizes.codeLines; n > 0; n--) at = body.indexOf('\n', at) + 1
  const next = seal(carry, body.slice(0, at), sealed)
  return {
    source: sourceOf(carry, body),
    code: carry.code + token.text,
    parts: [...carry.parts, ...open],
    list: null,
    carry: { ...next, code: carry.code + sealed.join('') },
  }
}

function extendTable(carry: Carry, body: string, sizes: PartSizes): Extended {
  const { complete, last } = rowLines(body)
  const rows = last === null ? complete : [...complete, last]
  // full runs of complete rows are sealed
  const sealedRows = complete.slice(0, complete.length - (complete.length % sizes.tableRows))
  const at = sealedRows.reduce((n, row) => n + row.length + 1, 0)
  return {
    source: sourceOf(carry, body),
    code: '',
    parts: [...carry.parts, ...rowParts(rows, sizes.tableRows)],
    list: null,
    carry: seal(carry, body.slice(0, at), rowParts(sealedRows, sizes.tableRows)),
  }
}

function extendList(carry: Carry, list: Tokens.List, body: string): Extended | null {
  if (!tight(list, body)) return null
  // every item but the last is sealed, and but the one before while the last is one short
  // line: "-" may turn out to be no item at all ("--" goes on the item above)
  const lastItem = trimEnd(list.items[list.items.length - 1]?.raw ?? '')
  const keep = lastItem.length <= 16 && !lastItem.includes('\n') ? 2 : 1
  const sealed = list.items.slice(0, Math.max(0, list.items.length - keep))
  const sealedRaw = sealed.map((item) => item.raw).join('')
  if (!body.startsWith(sealedRaw)) return null
  const next = seal(
    carry,
    sealedRaw,
    sealed.map((item) => trimEnd(item.raw)),
  )
  next.list = { ...carry.list!, task: carry.list!.task || sealed.some((item) => item.task) }
  return {
    source: sourceOf(carry, body),
    code: '',
    parts: [...carry.parts, ...list.items.map((item) => trimEnd(item.raw))],
    list: listInfo(
      carry,
      list.items.some((item) => item.task),
    ),
    carry: next,
  }
}
