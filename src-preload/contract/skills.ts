/** A skill as Settings › Skills lists it (the model reads it with use_skill). */
export interface SkillInfo {
  name: string
  description: string
  /** the data directory's `skills/`, an assistant's folder, a project's */
  source: 'local' | 'assistant' | 'project'
  /** the skill's folder */
  dir: string
}
