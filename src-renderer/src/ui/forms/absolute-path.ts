/** The check of a folder typed as an absolute path (the workspace settings, an assistant's workspace). */

/** POSIX (`/…`, `~/…` is not: the host does not expand it), Windows drive or UNC paths. */
export function absolutePathProblem(value: string): string | null {
  if (!value) return null
  if (value.length > 4096) return 'At most 4096 characters.'
  if (/^\//.test(value) || /^[A-Za-z]:[\\/]/.test(value) || /^\\\\[^\\]/.test(value)) return null
  return 'Enter an absolute path, like /home/you/Projects or C:\\Users\\you\\Projects.'
}
