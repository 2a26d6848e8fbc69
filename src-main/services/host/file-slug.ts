/** A file name's stem from a title: lower case letters and digits joined by `-`, at most 60. */
export function fileSlug(title: string, fallback: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || fallback
  )
}
