/**
 * Attached documents that do not fit: when the request is larger than the window and it
 * carries documents, they are cut (the longest first) by what it is over, so the rest of the
 * conversation is sent as it is. The model reads where and how much was left out
 * (`user-attachments.ts`); the user is told in a notice.
 */
import { CHARS_PER_TOKEN } from '../llm/estimate'
import { groupDigits } from '../attachments/describe'
import type { DocumentCaps, DocumentSent } from './user-attachments'

/** what fitting needs of a request view: its estimated tokens and the documents it carries */
export interface SizedView {
  tokens: number
  documents: readonly DocumentSent[]
}

/** room kept for the lines that say what was left out */
const MARGIN_CHARS = 400

/**
 * The view again with its documents cut to fit `window` (estimated tokens), or null when it
 * fits, carries no document, or the window is unknown (0).
 */
export function fitDocuments<View extends SizedView>(
  view: View,
  window: number,
  rebuild: (caps: DocumentCaps) => View,
): { view: View; cut: DocumentSent[]; notice: string } | null {
  if (window <= 0 || view.tokens <= window || view.documents.length === 0) return null
  const over = (view.tokens - window) * CHARS_PER_TOKEN + MARGIN_CHARS * view.documents.length
  const caps = capsRemoving(view.documents, over)
  const fitted = rebuild(caps)
  const cut = fitted.documents.filter((d) => d.sent < d.chars)
  if (cut.length === 0) return null
  const said = cut.map(
    (d) =>
      `${d.name}: ${groupDigits(d.chars - d.sent)} of ${groupDigits(d.chars)} characters left out`,
  )
  return {
    view: fitted,
    cut,
    notice: `Attached documents did not fit in the model's context window, so they were cut (${said.join('; ')}). The model is told so.`,
  }
}

/**
 * One cap for every document such that they lose `over` characters together: the longest
 * lose first (documents shorter than the cap are sent whole).
 */
export function capsRemoving(
  documents: readonly DocumentSent[],
  over: number,
): Map<string, number> {
  const lengths = new Map<string, number>()
  for (const d of documents) lengths.set(d.id, Math.max(lengths.get(d.id) ?? 0, d.chars))
  const total = [...lengths.values()].reduce((a, b) => a + b, 0)
  const keep = Math.max(0, total - over)
  let lo = 0
  let hi = Math.max(0, ...lengths.values())
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    let sum = 0
    for (const n of lengths.values()) sum += Math.min(n, mid)
    if (sum <= keep) lo = mid
    else hi = mid - 1
  }
  return new Map([...lengths.keys()].map((id) => [id, lo]))
}
