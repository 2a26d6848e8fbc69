/**
 * `cairn skills list|show` with the built CLI in its own process: the data directory's
 * skills, a file of one, and a path out of its folder refused.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCliEnv } from '../support/cli'

let env: NodeJS.ProcessEnv
let dataDir: string
let stop: () => Promise<void>

beforeEach(async () => {
  ;({ env, dataDir, stop } = await startCliEnv({ prefix: 'cairn-cli-skills-' }))
  const skill = join(dataDir, 'skills', 'notes')
  mkdirSync(join(skill, 'ref'), { recursive: true })
  writeFileSync(
    join(skill, 'SKILL.md'),
    '---\nname: release-notes\ndescription: Write release notes.\n---\nGroup by kind.\n',
  )
  writeFileSync(join(skill, 'ref', 'style.md'), 'Short lines.')
})
afterEach(() => stop())

const cli = (...args: string[]) => runCli(args, { env })

describe('cairn skills', () => {
  it('lists the skills and shows one, and a file of it', async () => {
    const list = await cli('skills', 'list')
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(`release-notes  (local)  ${join(dataDir, 'skills', 'notes')}`)
    expect(list.stdout).toContain('  Write release notes.')
    const show = await cli('skills', 'show', 'release-notes')
    expect(show.stdout).toContain('Group by kind.')
    const file = await cli('skills', 'show', 'release-notes', 'ref/style.md')
    expect(file.stdout.trim()).toBe('Short lines.')
    const out = await cli('skills', 'show', 'release-notes', '../../settings.json')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('The file "../../settings.json" cannot be read')
  }, 180_000) // four runs of the CLI, on a busy machine
})
