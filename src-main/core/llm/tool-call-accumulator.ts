/**
 * Builds complete tool calls from streamed fragments, whatever the dialect:
 * - OpenAI / vLLM / llama.cpp: fragments keyed by `index`, id and name on the first one,
 *   arguments split anywhere (the SDK hands us decoded strings; we only concatenate them);
 * - several calls interleaved by index;
 * - Ollama: complete calls in one delta, sometimes without `index`, sometimes with
 *   `arguments` as an object (→ JSON.stringify);
 * - Moonshot: several calls started in one delta without `index`, continued by as many bare
 *   fragments in a later delta, in the same order.
 * A call without an id gets a generated `call_…` one.
 */
import { randomUUID } from 'node:crypto'
import type { ToolCallRecord } from '../../../src-preload/contract/dto'

interface Slot {
  index: number
  id: string
  name: string
  args: string
}

/** A tool-call fragment as it may arrive on the wire (every field optional). */
interface WireToolCallFragment {
  index?: unknown
  id?: unknown
  function?: { name?: unknown; arguments?: unknown } | null
}

export function generateToolCallId(): string {
  return 'call_' + randomUUID().replace(/-/g, '').slice(0, 24)
}

export class ToolCallAccumulator {
  private readonly slots: Slot[] = []
  private readonly byIndex = new Map<number, Slot>()
  private nextIndex = 0

  get count(): number {
    return this.slots.length
  }

  /** Adds the `tool_calls` array of one delta. */
  add(fragments: readonly unknown[]): void {
    for (let i = 0; i < fragments.length; i++) {
      const f = fragments[i] as WireToolCallFragment | null | undefined
      if (f === null || typeof f !== 'object') continue
      const fn = f.function !== null && typeof f.function === 'object' ? f.function : undefined
      const id = typeof f.id === 'string' && f.id !== '' ? f.id : undefined
      const name = fn && typeof fn.name === 'string' && fn.name !== '' ? fn.name : undefined
      const index = typeof f.index === 'number' ? f.index : undefined
      const slot =
        index === undefined && id === undefined && name === undefined && fragments.length > 1
          ? this.positional(i, fragments.length)
          : this.slotFor(index, id, name)
      if (id !== undefined && slot.id === '') slot.id = id
      if (name !== undefined && slot.name === '') slot.name = name
      const args = fn?.arguments
      if (typeof args === 'string') slot.args += args
      else if (args !== null && typeof args === 'object') slot.args += JSON.stringify(args)
    }
  }

  /** The finished calls, ordered by index; ids generated where missing or duplicated. */
  finish(): ToolCallRecord[] {
    const sorted = this.slots.slice().sort((a, b) => a.index - b.index)
    const seen = new Set<string>()
    const out: ToolCallRecord[] = []
    for (const s of sorted) {
      let id = s.id
      if (id === '' || seen.has(id)) id = generateToolCallId()
      seen.add(id)
      // a call without arguments is a call with no arguments: `{}` is what providers accept back
      out.push({ id, name: s.name, arguments: s.args === '' ? '{}' : s.args })
    }
    return out
  }

  /** The raw argument characters received so far (for usage estimates). */
  argumentChars(): number {
    let n = 0
    for (const s of this.slots) n += s.args.length
    return n
  }

  private slotFor(
    index: number | undefined,
    id: string | undefined,
    name: string | undefined,
  ): Slot {
    if (index !== undefined) {
      const known = this.byIndex.get(index)
      if (known) return known
      return this.create(index)
    }
    // no index: the same id continues a call; a bare arguments fragment continues the last one;
    // anything carrying a new id or a name starts a new call
    if (id !== undefined) {
      for (const s of this.slots) if (s.id === id) return s
    }
    const last = this.slots[this.slots.length - 1]
    if (last && id === undefined && name === undefined) return last
    return this.create(this.nextIndex)
  }

  /**
   * A bare fragment among several in one delta, without index (Moonshot): the k-th continues
   * the k-th of the last calls, as many as the delta has fragments.
   */
  private positional(position: number, count: number): Slot {
    const at = this.slots.length - count + position
    return this.slots[at] ?? this.slots[this.slots.length - 1] ?? this.create(this.nextIndex)
  }

  private create(index: number): Slot {
    const slot: Slot = { index, id: '', name: '', args: '' }
    this.slots.push(slot)
    this.byIndex.set(index, slot)
    if (index >= this.nextIndex) this.nextIndex = index + 1
    return slot
  }
}
