/**
 * An MCPB bundle's `manifest.json` (the MCPB manifest spec, versions 0.1 to 0.4; older
 * bundles say `dxt_version`), read with zod. Fields Cairn does not use are tolerated (a
 * newer version may add some); a field Cairn uses with the wrong type is refused, naming it.
 */
import { z } from 'zod'

const text = (max: number) => z.string().max(max)

const serverConfig = {
  command: text(4096).refine((s) => s.trim() !== '', 'is empty'),
  args: z.array(text(4096)).max(200).optional(),
  env: z.record(text(200), text(10_000)).optional(),
}

const userConfigOption = z.looseObject({
  type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
  title: text(200),
  description: text(2000).optional(),
  required: z.boolean().optional(),
  default: z.union([text(4096), z.number(), z.boolean(), z.array(text(4096)).max(100)]).optional(),
  multiple: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
})

const named = z.looseObject({ name: text(200), description: text(4000).optional() })

export const manifestSchema = z
  .looseObject({
    manifest_version: text(20).optional(),
    dxt_version: text(20).optional(),
    name: text(200).refine((s) => s.trim() !== '', 'is empty'),
    display_name: text(200).optional(),
    version: text(100),
    description: text(4000),
    long_description: text(20_000).optional(),
    author: z.looseObject({
      name: text(200),
      email: text(200).optional(),
      url: text(2000).optional(),
    }),
    repository: z.looseObject({ type: text(50).optional(), url: text(2000) }).optional(),
    homepage: text(2000).optional(),
    license: text(200).optional(),
    server: z.looseObject({
      type: z.enum(['node', 'python', 'binary', 'uv']),
      entry_point: text(1000),
      mcp_config: z.looseObject({
        ...serverConfig,
        platform_overrides: z
          .record(
            text(20),
            z.looseObject({
              command: serverConfig.command.optional(),
              args: serverConfig.args,
              env: serverConfig.env,
            }),
          )
          .optional(),
      }),
    }),
    tools: z.array(named).max(1000).optional(),
    tools_generated: z.boolean().optional(),
    prompts: z.array(named).max(1000).optional(),
    prompts_generated: z.boolean().optional(),
    compatibility: z
      .looseObject({
        claude_desktop: text(100).optional(),
        platforms: z.array(text(20)).max(20).optional(),
        runtimes: z.record(text(50), text(100)).optional(),
      })
      .optional(),
    user_config: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), userConfigOption).optional(),
  })
  .refine((m) => m.manifest_version !== undefined || m.dxt_version !== undefined, {
    message: 'is missing',
    path: ['manifest_version'],
  })

export type McpbManifest = z.infer<typeof manifestSchema>
export type UserConfigOption = z.infer<typeof userConfigOption>

/** What is wrong with one field, in words: `server.mcp_config.args must be a list of text`. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.map(String).join('.') : 'the manifest'
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${where} is missing`
      return `${where} must be ${expectedWords(issue.expected)}`
    case 'invalid_value':
      return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'too_big':
      return `${where} is too long`
    case 'invalid_format':
    case 'invalid_key':
      return `${where} has a name Cairn does not accept (letters, digits, "_" and "-")`
    case 'invalid_union':
      return `${where} must be text, a number, true or false, or a list of text`
    default:
      return `${where} ${issue.message}`
  }
}

function expectedWords(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text'
    case 'array':
      return 'a list'
    case 'object':
    case 'record':
      return 'an object'
    case 'boolean':
      return 'true or false'
    default:
      return `a ${expected}`
  }
}

/** The manifest, checked; `{ problem }` names the first field that is wrong. */
export function readManifest(raw: unknown): { manifest: McpbManifest } | { problem: string } {
  const r = manifestSchema.safeParse(raw, { reportInput: true })
  if (r.success) return { manifest: r.data }
  const issue = r.error.issues[0]
  return { problem: issue ? describeIssue(issue) : 'the manifest is not valid' }
}
