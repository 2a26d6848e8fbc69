/**
 * One MCP server's entry of the Claude Desktop-format configuration, checked with zod (the
 * schema language of our own data). Unknown keys are dropped (another app's extras do not
 * break Cairn); each problem is said for its field, in the words a person can act on.
 */
import { z } from 'zod'
import { mcpHttpFields, mcpStdioFields } from '../../../src-preload/contract/mcp-config-schema'

/** the file's reading: the shared fields, unknown keys dropped */
export const stdioEntrySchema = z.object(mcpStdioFields)
export const httpEntrySchema = z.object(mcpHttpFields)

/** What to say about a field, by its path in the entry. */
function problem(path: readonly PropertyKey[], value: Record<string, unknown>): string {
  const [head, second] = path.map(String)
  switch (head) {
    case 'command':
      return 'command is empty'
    case 'args':
      return 'args must be a list of strings'
    case 'env':
    case 'headers':
      return second !== undefined
        ? `${head}.${second} must be a string`
        : `${head} must be an object of strings`
    case 'cwd':
      return 'cwd must be a string'
    case 'extension':
      return 'extension must name a folder of the extensions folder (letters, digits, ".", "_", "-")'
    case 'disabled':
    case 'trustAnnotations':
    case 'allowViews':
      return `${head} must be true or false`
    case 'timeoutMs':
    case 'maxTimeoutMs':
      return `${head} must be a positive whole number of milliseconds`
    case 'url': {
      const url = String(value['url'])
      return URL.canParse(url) ? 'url must be http or https' : `url is not a valid URL: ${url}`
    }
    case 'oauth':
      if (second === undefined) return 'oauth must be an object'
      if (second === 'scopes') return 'oauth.scopes must be a list of scope names'
      if (second === 'clientMetadataUrl')
        return 'oauth.clientMetadataUrl must be an https address with a path'
      return `oauth.${second} must be a non-empty string`
    default:
      return `${String(head)} is not valid`
  }
}

/** The first problem of `value` under `schema`, for `where`; null when it is valid. */
export function entryProblem<T>(
  schema: z.ZodType<T>,
  value: Record<string, unknown>,
  where: string,
): { ok: true; data: T } | { ok: false; message: string } {
  const r = schema.safeParse(value)
  if (r.success) return { ok: true, data: r.data }
  return { ok: false, message: `${where}.${problem(r.error.issues[0]?.path ?? [], value)}` }
}
