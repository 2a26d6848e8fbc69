/**
 * `cairn skills list` and `cairn skills show <name> [file]`: the skills a turn may read
 * with `use_skill` (the data directory's `skills/`, and with `--assistant` that assistant's
 * `assistant-skills/<id>/`). What a skill's files say reaches the terminal through the
 * guarded streams.
 */
import { LocalSkills, skillRoots } from '../adapters/skills/local-skills'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'

export async function skillsCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const [sub, name, file] = args
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  const warn = (m: string): void => void streams.stderr.write(`Warning: ${m}\n`)
  const library = new LocalSkills(
    skillRoots(app.dataDir, { assistantId: options.assistant ?? null }),
    warn,
  )
  switch (sub) {
    case 'list': {
      const skills = library.list()
      if (options.json) {
        out(JSON.stringify({ skills }))
        return 0
      }
      if (skills.length === 0)
        out(
          `No skills. Put a skill's folder (with its SKILL.md) in ${skillRoots(app.dataDir).at(-1)?.dir}.`,
        )
      for (const s of skills) {
        out(`${s.name}  (${s.source})  ${s.dir}`)
        out(`  ${s.description.split('\n')[0]}`)
      }
      return 0
    }
    case 'show': {
      if (!name) throw new UsageError('cairn skills show needs a skill name (cairn skills list)')
      const r = await library.read(name, file)
      out(r.text)
      return 0
    }
    default:
      throw new UsageError(
        sub ? `unknown skills command "${sub}"` : 'cairn skills needs a command: list or show',
      )
  }
}
