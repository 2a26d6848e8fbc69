/** The session on screen, in the address: `#/session/<id>`. */
export function sessionFromHash(hash: string): string | null {
  const m = /^#\/session\/([A-Za-z0-9_-]+)$/.exec(hash)
  return m?.[1] ?? null
}
