/**
 * A server's paged lists (resources, their templates, prompts): how much of one is read,
 * and how long a name, title or description may be.
 */

/** pages of a list read at most, and entries kept of one server */
const MAX_PAGES = 20
const MAX_ENTRIES = 500
/** characters of a name, title or description shown in the picker */
const MAX_LABEL = 500

export function label(s: string, max = MAX_LABEL): string {
  return s.length > max ? `${s.slice(0, max)}…` : s
}

/**
 * Reads a list page by page (at most MAX_PAGES pages and MAX_ENTRIES entries), each entry
 * made by `entry`; `page` gives null to stop (a list the server may not have).
 */
export async function readPages<Raw, Entry>(
  page: (cursor: string | undefined) => Promise<{ items: Raw[]; nextCursor?: string } | null>,
  entry: (raw: Raw) => Entry,
): Promise<Entry[]> {
  const out: Entry[] = []
  let cursor: string | undefined
  for (let n = 0; n < MAX_PAGES && out.length < MAX_ENTRIES; n++) {
    const r = await page(cursor)
    if (!r) break
    for (const raw of r.items.slice(0, MAX_ENTRIES - out.length)) out.push(entry(raw))
    cursor = r.nextCursor
    if (!cursor) break
  }
  return out
}
