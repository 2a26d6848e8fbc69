/** The routes of projects: chats grouped with their instructions, assistant, model and folder. */
import { z } from 'zod'
import {
  projectDraftSchema,
  projectPatchSchema,
  type ProjectDeleted,
  type ProjectSummary,
} from '../projects'
import { id } from './fields'

export const projectsInputs = {
  'projects.list': z.strictObject({}),
  'projects.get': z.strictObject({ id }),
  'projects.create': z.strictObject({ project: projectDraftSchema }),
  /** sets the fields `patch` gives; `null` clears an optional one */
  'projects.update': z.strictObject({ id, patch: projectPatchSchema }),
  /** its chats move to "No project"; none is deleted */
  'projects.delete': z.strictObject({ id }),
} satisfies Record<keyof ProjectsOutputs, z.ZodType>

export interface ProjectsOutputs {
  'projects.list': { projects: ProjectSummary[] }
  'projects.get': ProjectSummary
  'projects.create': ProjectSummary
  'projects.update': ProjectSummary
  'projects.delete': ProjectDeleted
}
