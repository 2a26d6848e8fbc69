/**
 * Skills from local folders: each `<root>/<folder>/SKILL.md` whose YAML frontmatter has a
 * `name` and a `description` (the Agent Skills format). The roots are the data directory's
 * `skills/`, the assistant's `assistant-skills/<assistant id>/` and the project's
 * `project-skills/<project id>/`; a name found twice is the most specific one's (project,
 * then assistant, then the data directory's). Files are read as text, at most 256 KB, only
 * inside the skill's own folder (no links out, no `..`).
 */
import fs from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import {
  SKILL_DESCRIPTION_CHARS,
  type SkillLibrary,
  type SkillSource,
  type SkillSummary,
} from '../../core/skills/skills'
import { ExpectedError } from '../../core/errors'

const MAX_SKILLS = 200
const MAX_FILE_BYTES = 256 * 1024
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

export interface SkillRoot {
  dir: string
  source: SkillSource
}

/** The frontmatter of a SKILL.md: its name and description, or why it cannot be read. */
export function readFrontmatter(
  text: string,
): { name: string; description: string; body: string } | { problem: string } {
  const t = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n')
  if (!t.startsWith('---\n')) return { problem: 'SKILL.md does not start with a --- frontmatter' }
  const end = t.indexOf('\n---', 4)
  if (end < 0) return { problem: 'SKILL.md has no closing --- after its frontmatter' }
  let data: unknown
  try {
    data = parseYaml(t.slice(4, end), { maxAliasCount: 10 })
  } catch (e) {
    return { problem: `its frontmatter is not valid YAML (${(e as Error).message.split('\n')[0]})` }
  }
  const f = (data ?? {}) as Record<string, unknown>
  if (typeof f['name'] !== 'string' || !NAME.test(f['name']))
    return {
      problem: 'its frontmatter needs a name: lowercase letters, digits and "-" (64 at most)',
    }
  if (typeof f['description'] !== 'string' || f['description'].trim() === '')
    return { problem: 'its frontmatter needs a description' }
  const body = t.slice(end + 4).replace(/^[^\n]*\n/, '')
  return {
    name: f['name'],
    description: f['description'].trim().slice(0, SKILL_DESCRIPTION_CHARS),
    body,
  }
}

function readSmall(file: string): string | null {
  try {
    const stat = fs.lstatSync(file)
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return null
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

/** The skills under the roots, most specific first; `warn` hears each folder left out and why. */
export function scanSkills(
  roots: readonly SkillRoot[],
  warn: (message: string) => void = () => {},
): SkillSummary[] {
  const found = new Map<string, SkillSummary>()
  for (const root of roots) {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(root.dir, { withFileTypes: true })
    } catch {
      continue
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!e.isDirectory() || found.size >= MAX_SKILLS) continue
      const dir = path.join(root.dir, e.name)
      const text = readSmall(path.join(dir, 'SKILL.md'))
      if (text === null) continue
      const f = readFrontmatter(text)
      if ('problem' in f) {
        warn(`The skill in ${dir} is left out: ${f.problem}.`)
        continue
      }
      if (!found.has(f.name))
        found.set(f.name, { name: f.name, description: f.description, source: root.source, dir })
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** Confines `file` to the skill's folder: a relative path with no `..`, no link on the way. */
async function inside(dir: string, file: string): Promise<string> {
  const refuse = (why: string): never => {
    throw new ExpectedError('bad_request', `The file "${file}" cannot be read: ${why}.`)
  }
  if (path.isAbsolute(file) || file.split(/[\\/]/).includes('..'))
    refuse('give a path inside the skill\'s folder, like "reference/forms.md"')
  const target = path.resolve(dir, file)
  const real = await fs.promises.realpath(target).catch(() => refuse('it is not in the skill'))
  const root = await fs.promises.realpath(dir)
  if (!real.startsWith(root + path.sep)) refuse("it is outside the skill's folder")
  return real
}

export class LocalSkills implements SkillLibrary {
  private cached: SkillSummary[] | null = null

  constructor(
    private readonly roots: readonly SkillRoot[],
    private readonly warn: (message: string) => void = () => {},
  ) {}

  list(): SkillSummary[] {
    return (this.cached ??= scanSkills(this.roots, this.warn))
  }

  async read(
    name: string,
    file?: string,
  ): Promise<{ skill: SkillSummary; path: string; text: string }> {
    const skill = this.list().find((s) => s.name === name)
    if (!skill)
      throw new ExpectedError(
        'not_found',
        `There is no skill named "${name}". The skills are: ${
          this.list()
            .map((s) => s.name)
            .join(', ') || 'none'
        }.`,
      )
    const at = file ? await inside(skill.dir, file) : path.join(skill.dir, 'SKILL.md')
    const text = readSmall(at)
    if (text === null)
      throw new ExpectedError(
        'bad_request',
        `The file "${file ?? 'SKILL.md'}" of the skill ${name} is not a text file of at most 256 KB.`,
      )
    return { skill, path: at, text }
  }
}

/** The folders skills are read from for a turn, most specific first. */
export function skillRoots(
  dataDir: string,
  o: { assistantId?: string | null; projectId?: string | null } = {},
): SkillRoot[] {
  const safe = (id: string): boolean => /^[A-Za-z0-9_-]{1,100}$/.test(id)
  return [
    ...(o.projectId && safe(o.projectId)
      ? [{ dir: path.join(dataDir, 'project-skills', o.projectId), source: 'project' as const }]
      : []),
    ...(o.assistantId && safe(o.assistantId)
      ? [
          {
            dir: path.join(dataDir, 'assistant-skills', o.assistantId),
            source: 'assistant' as const,
          },
        ]
      : []),
    { dir: path.join(dataDir, 'skills'), source: 'local' as const },
  ]
}
