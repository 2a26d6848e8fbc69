/**
 * What connected MCP servers offer besides tools: resources (and templates that make them)
 * the composer's `@` attaches to a message, and prompts its `/server:prompt` commands use.
 * Every string here comes from a server: the window shows it as text, never as markup.
 */
import { z } from 'zod'

export interface McpResource {
  server: string
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
}

export interface McpResourceTemplate {
  server: string
  uriTemplate: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  /** the template's variables, asked before the resource is read */
  variables: string[]
}

export interface McpPromptArgument {
  name: string
  description?: string
  required: boolean
}

export interface McpPrompt {
  server: string
  name: string
  title?: string
  description?: string
  arguments: McpPromptArgument[]
}

/** a message a prompt produced, as text (images and embedded resources become text or notes) */
export interface McpPromptMessage {
  role: 'user' | 'assistant'
  text: string
}

const serverName = z.string().min(1).max(200)
const uri = z.string().min(1).max(4096)

/** a resource to attach: by URI, or a template with its variables */
export const resourceRefSchema = z.strictObject({
  server: serverName,
  uri: uri.optional(),
  uriTemplate: uri.optional(),
  values: z.record(z.string().max(200), z.string().max(4096)).optional(),
  name: z.string().max(500).optional(),
})
export type ResourceRef = z.infer<typeof resourceRefSchema>

export const promptRefSchema = z.strictObject({
  server: serverName,
  name: z.string().min(1).max(500),
  arguments: z.record(z.string().max(200), z.string().max(100_000)).optional(),
})
export type PromptRef = z.infer<typeof promptRefSchema>
