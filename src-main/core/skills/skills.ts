/**
 * Agent Skills (`SKILL.md` folders: YAML frontmatter with a name and a description, then
 * instructions in Markdown) as a turn sees them. Skills are instructions the model reads on
 * demand with the built-in `use_skill`, never code Cairn runs, and they change no approval.
 */

/** Where a skill comes from: the data directory, an assistant's folder, a project's. */
export type SkillSource = 'local' | 'assistant' | 'project'

export interface SkillSummary {
  name: string
  description: string
  source: SkillSource
  /** the skill's folder */
  dir: string
}

/** The skills one turn may use, by name; reading is confined to each skill's folder. */
export interface SkillLibrary {
  list(): SkillSummary[]
  /** the skill's SKILL.md (`file` unset) or one file of its folder, as text; throws saying why not */
  read(name: string, file?: string): Promise<{ skill: SkillSummary; path: string; text: string }>
}

/** how much of the skills' names and descriptions the tool's description carries */
export const SKILL_LIST_CHARS = 8_000
/** one description, at most */
export const SKILL_DESCRIPTION_CHARS = 1_024

/** the built-in tool that reads a skill */
export const USE_SKILL = 'use_skill'
/** the tool source of Cairn's built-in tools (`adapters/builtin-tools`) */
const BUILTIN_SOURCE = 'cairn'

/**
 * Reading a skill needs no approval (it reads instructions, read-only, inside the skill's
 * folder), except where the policy denies every call.
 */
export function isSkillReading(tool: { server: string; tool: string }): boolean {
  return tool.server === BUILTIN_SOURCE && tool.tool === USE_SKILL
}
