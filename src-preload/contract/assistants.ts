/**
 * Assistants: a named set-up a conversation runs with (system prompt, provider and model,
 * the tools the model may see, permission policy, limits, temperature, workspace).
 * Defined once here: the database rows are checked with it, the routes take its drafts, and
 * an exported file is read with `assistantFileSchema`.
 *
 * Every optional field, when unset, means "what the settings say": the Default assistant
 * sets none of them and so runs as Cairn runs without assistants.
 */
import { z } from 'zod'
import { limitsSchema, permissionPolicySchema } from './settings-schema'

const text = (max: number) => z.string().max(max)

/** a tool's or a server's name as it is configured */
const toolName = z.string().min(1).max(200)

/**
 * Which tools of a set (the built-in tools, or one MCP server's tools) are offered:
 * `all` of them (those added later too), `none`, or `some` (exactly `names`; a name
 * the set does not have offers nothing). `names` is kept whatever the mode, so
 * switching back to `some` restores the choice.
 */
export const toolSelectionSchema = z.strictObject({
  mode: z.enum(['all', 'none', 'some']),
  names: z.array(toolName).max(1000),
})

export const assistantToolsSchema = z.strictObject({
  /** Cairn's own tools (`read_file`, `run_command`, …), as far as the settings switch them on */
  builtin: toolSelectionSchema,
  mcp: z.strictObject({
    /** per MCP server, by its configured name */
    servers: z.record(toolName, toolSelectionSchema),
    /** what servers not listed in `servers` offer (servers added later too) */
    others: z.enum(['all', 'none']),
  }),
})

/** An assistant as it is created, edited, exported and imported: what the user sets. */
export const assistantDraftSchema = z.strictObject({
  /** unique among assistants (compared without case and surrounding spaces) */
  name: z.string().trim().min(1).max(100),
  description: text(2000).optional(),
  /** unset: the settings' system prompt; an empty string: none */
  systemPrompt: text(100_000).optional(),
  /** the provider's id in the settings; unset: the active provider */
  providerId: z.string().min(1).max(200).optional(),
  /** unset: the provider's (or the settings') default model */
  model: z.string().min(1).max(500).optional(),
  /** the model that writes summaries and titles; unset: the provider's utility model */
  utilityModel: z.string().min(1).max(500).optional(),
  /** unset: the server's default */
  temperature: z.number().min(0).max(2).optional(),
  tools: assistantToolsSchema,
  /** unset: the settings' policy */
  permissionPolicy: permissionPolicySchema.optional(),
  /** each unset: the settings' limit */
  limits: z.strictObject({
    maxIterations: limitsSchema.shape.maxIterations.optional(),
    deadlineMs: limitsSchema.shape.deadlineMs.optional(),
  }),
  /** the workspace folder of its new chats; unset: the settings' default workspace */
  workspace: text(4096).optional(),
})

/**
 * Where an assistant came from: `default` is the one new chats use unless another is
 * picked (it cannot be deleted); `builtin` ones ship with Cairn ("Chat", "Files",
 * "Researcher") and are ordinary editable rows; `user` ones were created, duplicated or
 * imported.
 */
export const assistantOriginSchema = z.enum(['default', 'builtin', 'user'])

/** the id of the assistant new chats start with (it cannot be deleted) */
export const DEFAULT_ASSISTANT_ID = 'default'

export const assistantSchema = z.strictObject({
  ...assistantDraftSchema.shape,
  id: z.string().min(1).max(200),
  origin: assistantOriginSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
})

/**
 * The exported file (`assistants.export`, `cairn assistants export`): the draft only, so
 * no id, no dates and never a secret (an assistant names a provider by id; its key stays in
 * the secrets). Import reads it leniently: unknown keys are dropped, a wrong field is named.
 */
export const assistantFileSchema = z.object({
  cairnAssistant: z.literal(1),
  assistant: z.object(assistantDraftSchema.shape),
})

export type ToolSelection = z.infer<typeof toolSelectionSchema>
export type AssistantTools = z.infer<typeof assistantToolsSchema>
export type AssistantDraft = z.infer<typeof assistantDraftSchema>
export type AssistantOrigin = z.infer<typeof assistantOriginSchema>
export type Assistant = z.infer<typeof assistantSchema>
export type AssistantFile = z.infer<typeof assistantFileSchema>

/** A tool the model would be offered (`assistants.previewTools`). */
export interface AssistantToolPreview {
  name: string
  /** the MCP server's name; null for a built-in tool */
  server: string | null
  description: string
  readOnly: boolean
}

/**
 * What a turn would offer with a draft (`assistants.previewTools`): `tools` (built-in
 * first, then by server). `findTools`: more tools than one request carries
 * (`limits.maxToolsOffered`), so the model gets the built-in ones and `find_tools`, which
 * searches exactly these. `missing`: tools named in the draft that no connected server (or
 * the built-in set) has now.
 */
export interface AssistantToolsPreview {
  tools: AssistantToolPreview[]
  findTools: boolean
  missing: { server: string | null; name: string }[]
}

/** The assistant a session runs with, as the session lists it. */
export interface SessionAssistant {
  id: string
  name: string
  /** the assistant was deleted: the session runs with its copy of it (absent: it exists) */
  deleted?: boolean
}
