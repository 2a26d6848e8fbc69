/**
 * What an MCP registry says, checked with zod before anything else reads it: its v0.1 list
 * and detail answers and the `server.json` documents in them (the registry's published
 * schema: `packages` of npm, PyPI, OCI and other kinds, `remotes`, their arguments,
 * environment variables and headers). Every string is bounded; unknown keys are dropped.
 * A package or remote that does not fit is kept as `invalid` (the rest of the server stays
 * usable), and an entry of a list that does not fit is left out and counted.
 */
import { z } from 'zod'

const text = (max: number) => z.string().max(max)

/** the fields every input (argument, variable, header) may have */
const inputFields = {
  description: text(2000).optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: text(40).optional(),
  value: text(4000).optional(),
  default: text(4000).optional(),
  choices: z.array(text(500)).max(100).optional(),
}

export const keyValueInputSchema = z.object({ name: text(200).min(1), ...inputFields })

export const argumentSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('positional'),
    valueHint: text(200).optional(),
    isRepeated: z.boolean().optional(),
    ...inputFields,
  }),
  z.object({
    type: z.literal('named'),
    name: text(200).min(1),
    isRepeated: z.boolean().optional(),
    ...inputFields,
  }),
])

const headers = z.array(keyValueInputSchema).max(100).optional()

export const transportSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stdio') }),
  z.object({ type: z.literal('streamable-http'), url: text(2048), headers }),
  z.object({ type: z.literal('sse'), url: text(2048), headers }),
])

export const packageSchema = z.object({
  registryType: text(40).min(1),
  registryBaseUrl: text(2048).optional(),
  identifier: text(500).min(1),
  version: text(200).optional(),
  fileSha256: text(128).optional(),
  runtimeHint: text(100).optional(),
  transport: transportSchema,
  runtimeArguments: z.array(argumentSchema).max(100).optional(),
  packageArguments: z.array(argumentSchema).max(100).optional(),
  environmentVariables: z.array(keyValueInputSchema).max(200).optional(),
})

export const remoteSchema = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: text(2048),
  headers,
})

export const serverJsonSchema = z.object({
  name: text(200).min(3),
  title: text(200).optional(),
  description: text(2000).default(''),
  version: text(200).default(''),
  websiteUrl: text(2048).optional(),
  repository: z
    .object({ url: text(2048), source: text(100).optional(), subfolder: text(500).optional() })
    .optional(),
  // each checked on its own: one that does not fit leaves the others usable
  packages: z.array(z.unknown()).max(50).default([]),
  remotes: z.array(z.unknown()).max(50).default([]),
})

const officialMeta = z.object({
  status: text(40).optional(),
  publishedAt: text(100).optional(),
  updatedAt: text(100).optional(),
  isLatest: z.boolean().optional(),
})

export const serverAnswerSchema = z.object({
  server: serverJsonSchema,
  _meta: z
    .object({ 'io.modelcontextprotocol.registry/official': officialMeta.optional() })
    .optional(),
})

export const listAnswerSchema = z.object({
  servers: z.array(z.unknown()).max(1000),
  metadata: z.object({ nextCursor: text(2000).nullish() }).optional(),
})

export type KeyValueInput = z.infer<typeof keyValueInputSchema>
export type RegistryArgument = z.infer<typeof argumentSchema>
export type RegistryPackage = z.infer<typeof packageSchema>
export type RegistryRemote = z.infer<typeof remoteSchema>
export type ServerJson = z.infer<typeof serverJsonSchema>
export type ServerAnswer = z.infer<typeof serverAnswerSchema>
