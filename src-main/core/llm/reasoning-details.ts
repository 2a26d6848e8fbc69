/**
 * OpenRouter streams structured reasoning as `delta.reasoning_details` arrays; the assembled
 * array must be sent back on later requests (Anthropic signatures, Gemini encrypted blocks).
 * Pieces with the same `index` and `type` are merged: their text fields are concatenated,
 * other fields keep the latest value. Pieces without an index are kept as they came.
 */

const CONCAT_FIELDS = ['text', 'summary', 'data', 'signature'] as const

type Detail = Record<string, unknown>

export class ReasoningDetailsAccumulator {
  private readonly items: Detail[] = []
  private readonly byKey = new Map<string, Detail>()

  add(pieces: readonly unknown[]): void {
    for (const piece of pieces) {
      if (piece === null || typeof piece !== 'object' || Array.isArray(piece)) continue
      const p = piece as Detail
      const index = p['index']
      if (typeof index !== 'number') {
        this.items.push({ ...p })
        continue
      }
      const key = `${String(p['type'])}:${index}`
      const known = this.byKey.get(key)
      if (!known) {
        const copy = { ...p }
        this.byKey.set(key, copy)
        this.items.push(copy)
        continue
      }
      for (const [k, v] of Object.entries(p)) {
        const prev = known[k]
        if (
          (CONCAT_FIELDS as readonly string[]).includes(k) &&
          typeof v === 'string' &&
          typeof prev === 'string'
        ) {
          known[k] = prev + v
        } else if (v !== null && v !== undefined) {
          known[k] = v
        }
      }
    }
  }

  finish(): Detail[] {
    return this.items
  }
}
