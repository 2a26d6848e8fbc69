// @vitest-environment jsdom
/**
 * Settings › Skills: the skills of a real folder, read by the engine's own reader, listed
 * with where they come from and their description; "Show" opens a SKILL.md as plain text
 * (markup in it stays text).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { LocalSkills, skillRoots } from '../../src-main/adapters/skills/local-skills'
import { SkillsSection } from '../../src-renderer/src/features/skills/SkillsSection'
import { renderWithApp } from './support/render-app'

const dir = mkdtempSync(join(tmpdir(), 'cairn-skills-window-'))
afterEach(cleanup)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const SKILL = `---
name: release-notes
description: Write release notes from a list of changes.
---
Group the changes <img src=x onerror=alert(1)> by kind.
`

describe('Settings › Skills', () => {
  it('lists each skill and shows its SKILL.md as text', async () => {
    mkdirSync(join(dir, 'skills', 'notes'), { recursive: true })
    writeFileSync(join(dir, 'skills', 'notes', 'SKILL.md'), SKILL)
    const lib = new LocalSkills(skillRoots(dir))
    const { container } = renderWithApp(<SkillsSection />, {
      'skills.list': () => ({ skills: lib.list(), folder: join(dir, 'skills') }),
      'skills.show': async ({ name }) => ({ name, text: (await lib.read(name)).text }),
    })
    const user = userEvent.setup({ delay: null })
    const row = await screen.findByRole('listitem', { name: 'release-notes' })
    expect(within(row).getByText('Write release notes from a list of changes.')).toBeTruthy()
    expect(within(row).getByText('this computer')).toBeTruthy()
    await user.click(within(row).getByRole('button', { name: 'Show' }))
    const text = await within(row).findByLabelText('SKILL.md of release-notes')
    expect(text.textContent).toBe(SKILL)
    expect(container.querySelector('img')).toBeNull()
    await user.click(within(row).getByRole('button', { name: 'Hide' }))
    expect(within(row).queryByLabelText('SKILL.md of release-notes')).toBeNull()
  })

  it('says where to put skills when there are none', async () => {
    renderWithApp(<SkillsSection />, {
      'skills.list': () => ({ skills: [], folder: '/data/skills' }),
    })
    expect(
      await screen.findByText(
        "No skills yet. Put a skill's folder (with its SKILL.md) in /data/skills.",
      ),
    ).toBeTruthy()
  })
})
