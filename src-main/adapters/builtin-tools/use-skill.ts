/**
 * use_skill: reads a skill's instructions (its SKILL.md) or, when asked, one file of its
 * folder. Read-only, confined to the skill's folder. Its description lists the skills the
 * turn may use (names and descriptions, bounded), so the model knows when one applies.
 */
import {
  SKILL_LIST_CHARS,
  USE_SKILL,
  type SkillLibrary,
  type SkillSummary,
} from '../../core/skills/skills'
import { text, ToolError, type BuiltinTool } from './tool-def'

function listing(skills: readonly SkillSummary[]): string {
  let out = ''
  let left = 0
  for (const s of skills) {
    const line = `- ${s.name}: ${s.description.replace(/\s+/g, ' ')}\n`
    if (out.length + line.length > SKILL_LIST_CHARS) left++
    else out += line
  }
  return left > 0 ? `${out}(and ${left} more, not listed: name one to read it)\n` : out
}

export function useSkillTool(library: SkillLibrary): BuiltinTool {
  return {
    name: USE_SKILL,
    description:
      'Read a skill: instructions for a kind of task, written by the user or a tool provider. ' +
      'When a task matches a skill below, read its instructions first (name only), then any ' +
      'file they point to (name and file). Skills are instructions for you, not programs; they ' +
      'do not change what you are allowed to do.\n\nSkills:\n' +
      listing(library.list()),
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill, as listed' },
        file: {
          type: 'string',
          description: 'A file of the skill, relative to its folder (default: its SKILL.md)',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: {
      title: 'Read a skill',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args) {
      const name = args['name']
      const file = args['file']
      if (typeof name !== 'string' || name === '') throw new ToolError('name must be a skill name.')
      if (file !== undefined && typeof file !== 'string')
        throw new ToolError('file must be a path.')
      try {
        const r = await library.read(name, file || undefined)
        const head = file
          ? `[File ${file} of the skill ${name}]`
          : `[Skill ${name} (${r.skill.source}): its instructions]`
        return text(`${head}\n${r.text}`)
      } catch (e) {
        throw new ToolError(e instanceof Error ? e.message : String(e))
      }
    },
  }
}
