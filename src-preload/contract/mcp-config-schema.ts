/**
 * One MCP server's entry (the Claude Desktop format, plus Cairn's optional keys), defined
 * once: the routes take it as strict objects (nothing unknown from the window), the
 * configuration file reads it leniently (another app's extra keys are dropped).
 */
import { z } from 'zod'

const stringMap = z.record(z.string().max(200), z.string().max(10_000))
const ms = z.number().int().positive()

function isURL(s: string, protocols: readonly string[], needsPath = false): boolean {
  const u = URL.parse(s)
  return u !== null && protocols.includes(u.protocol) && (!needsPath || u.pathname !== '/')
}

const common = {
  disabled: z.boolean().optional(),
  /** believe this server's annotations (read-only hints); off by default */
  trustAnnotations: z.boolean().optional(),
  /** show its tools' interactive views (MCP Apps); off until the user allows them */
  allowViews: z.boolean().optional(),
  /** per-call timeout, reset by progress notifications */
  timeoutMs: ms.optional(),
  /** the longest a call may run, progress or not */
  maxTimeoutMs: ms.optional(),
}

export const mcpStdioFields = {
  ...common,
  command: z
    .string()
    .max(4096)
    .refine((s) => s.trim() !== ''),
  args: z.array(z.string().max(4096)).max(200).optional(),
  env: stringMap.optional(),
  cwd: z.string().max(4096).optional(),
  /** the folder of `<dataDir>/extensions/` an installed extension was unpacked into */
  extension: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
    .optional(),
}

/** a client registered with the server's authorization server beforehand (all optional) */
export const mcpOAuthFields = {
  clientId: z.string().min(1).max(4096).optional(),
  /** moved to the secrets store when the configuration is saved */
  clientSecret: z.string().min(1).max(4096).optional(),
  scopes: z.array(z.string().min(1).max(256).regex(/^\S+$/)).max(100).optional(),
  /** an https address with a path where Cairn's client metadata document is published */
  clientMetadataUrl: z
    .string()
    .max(4096)
    .refine((s) => isURL(s, ['https:'], true))
    .optional(),
}

export const mcpHttpFields = {
  ...common,
  url: z
    .string()
    .max(4096)
    .refine((s) => isURL(s, ['http:', 'https:'])),
  headers: stringMap.optional(),
  oauth: z.object(mcpOAuthFields).optional(),
}

/** what the window sends: one of the two, and nothing else */
export const mcpServerInput = z.union([
  z.strictObject(mcpStdioFields),
  z.strictObject({ ...mcpHttpFields, oauth: z.strictObject(mcpOAuthFields).optional() }),
])
