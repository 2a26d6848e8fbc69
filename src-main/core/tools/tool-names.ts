/**
 * The names the model sees: `<server>__<tool>` (built-in tools keep their own names),
 * sanitized to `^[a-zA-Z0-9_-]{1,64}$`, collisions resolved with a numeric suffix. The
 * mapping back to (server, tool) is kept by the caller.
 */
const MAX = 64

function clean(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'tool'
}

export function modelToolName(server: string, tool: string, builtin: boolean): string {
  const t = clean(tool)
  if (builtin) return t.slice(0, MAX)
  const s = clean(server)
  const full = `${s}__${t}`
  if (full.length <= MAX) return full
  // keep the tool's name whole where possible; shorten the server's
  const room = MAX - t.length - 2
  return room >= 4 ? `${s.slice(0, room)}__${t}` : full.slice(0, MAX)
}

/** Makes `name` unique among `taken` by appending `_2`, `_3`, … within 64 characters. */
export function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name
  for (let i = 2; ; i++) {
    const suffix = `_${i}`
    const candidate = `${name.slice(0, MAX - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}
