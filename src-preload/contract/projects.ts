/**
 * Projects: a named group of chats with the instructions added to their system prompt, the
 * assistant and model a new chat in it starts with, and the workspace folder its chats'
 * built-in file tools work in. Defined once here: the database rows are checked with it and
 * the routes and the CLI take its drafts. A chat belongs to at most one project; the rest
 * are "No project".
 */
import { z } from 'zod'

/** A project as it is created and edited: what the user sets. */
export const projectDraftSchema = z.strictObject({
  /** unique among projects (compared without case and surrounding spaces) */
  name: z.string().trim().min(1).max(100),
  /** added to the system prompt of the project's chats; empty: none */
  instructions: z.string().max(100_000),
  /** the assistant a new chat in the project starts with; unset: the default assistant */
  assistantId: z.string().min(1).max(200).optional(),
  /** the model a new chat in the project uses; unset: its assistant's (or the settings') */
  model: z.string().min(1).max(500).optional(),
  /** the folder its chats' built-in file tools work in; unset: the assistant's or the settings' */
  workspace: z.string().min(1).max(4096).optional(),
})

export const projectSchema = z.strictObject({
  ...projectDraftSchema.shape,
  id: z.string().min(1).max(200),
  createdAt: z.number(),
  updatedAt: z.number(),
})

/** A change to a project: the fields given are set; `null` clears an optional one. */
export const projectPatchSchema = z.strictObject({
  name: projectDraftSchema.shape.name.optional(),
  instructions: projectDraftSchema.shape.instructions.optional(),
  assistantId: projectDraftSchema.shape.assistantId.unwrap().nullable().optional(),
  model: projectDraftSchema.shape.model.unwrap().nullable().optional(),
  workspace: projectDraftSchema.shape.workspace.unwrap().nullable().optional(),
})

export type ProjectDraft = z.infer<typeof projectDraftSchema>
export type Project = z.infer<typeof projectSchema>
export type ProjectPatch = z.infer<typeof projectPatchSchema>

/** A project as the list shows it: with how many chats it holds. */
export interface ProjectSummary extends Project {
  /** chats in the project, archived ones included */
  chatCount: number
}

/** What deleting a project did: its chats moved to "No project", none deleted. */
export interface ProjectDeleted {
  deleted: boolean
  /** how many chats moved to "No project" */
  movedChats: number
}
