/**
 * How a project shapes the turns of its chats: a new chat in it starts with its assistant
 * and model, every chat in it works in its workspace folder and gets its instructions in
 * the system prompt. Explicit choices of a run (`--assistant`, `--model`, `--workspace`)
 * still come first.
 */
import type { SessionRecord } from '../../../src-preload/contract/dto'
import type { ProjectSummary } from '../../../src-preload/contract/projects'
import type { AppServices } from '../host/app-services'

/**
 * The project of a turn: an existing chat's own (`projectId` is then not used), else the one
 * a new chat is asked to start in (`not_found` when there is none), else null.
 */
export function turnProject(
  app: Pick<AppServices, 'projects'>,
  existing: SessionRecord | null,
  projectId: string | undefined,
): ProjectSummary | null {
  if (existing) return app.projects.forSession(existing)
  return projectId === undefined ? null : app.projects.require(projectId)
}

/**
 * The assistant a new chat in the project starts with when none is asked for: the
 * project's, while it exists (a deleted one: the default, as for any new chat).
 */
export function projectAssistantId(
  app: Pick<AppServices, 'assistants'>,
  project: ProjectSummary | null,
): string | undefined {
  const id = project?.assistantId
  return id !== undefined && app.assistants.get(id) ? id : undefined
}

/** The system prompt with the project's instructions after it (none: unchanged). */
export function projectSystemPrompt(
  base: string | null,
  project: Pick<ProjectSummary, 'name' | 'instructions'> | null,
): string | null {
  const instructions = project?.instructions.trim()
  if (!project || !instructions) return base
  const section = `# Project: ${project.name}\n${instructions}`
  return base?.trim() ? `${base}\n\n${section}` : section
}
