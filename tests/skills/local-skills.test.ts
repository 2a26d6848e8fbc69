/**
 * Skills from local folders through the real host: a `SKILL.md` folder in the data
 * directory's `skills/` is offered in use_skill's description, read by the scripted model
 * without asking (read-only), and one of its files on request; a path out of its folder is
 * refused, a folder without a valid frontmatter is left out, and no skill means no use_skill.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { AgentEvent } from '../../src-preload/contract/events'
import {
  LocalSkills,
  readFrontmatter,
  skillRoots,
} from '../../src-main/adapters/skills/local-skills'
import { unwrap } from '../support/bridges'
import { openChatHost, type ChatHost } from '../support/host'
import { lastToolContent, textReply, toolCallsReply } from '../support/openai-server'

let t: ChatHost | null = null
afterEach(async () => {
  await t?.stop()
  t = null
})

const FORMS = `---
name: pdf-forms
description: Fill in PDF forms. Use when the user asks to complete a form.
license: MIT
---
# Filling forms

Read reference/fields.md first.
`

const chatRequests = (h: ChatHost) =>
  h.server.requests.filter((r) => r.path.endsWith('/chat/completions'))

function writeSkills(dataDir: string): void {
  const skill = join(dataDir, 'skills', 'pdf-forms')
  mkdirSync(join(skill, 'reference'), { recursive: true })
  writeFileSync(join(skill, 'SKILL.md'), FORMS)
  writeFileSync(join(skill, 'reference', 'fields.md'), 'Dates are YYYY-MM-DD.')
  const broken = join(dataDir, 'skills', 'broken')
  mkdirSync(broken, { recursive: true })
  writeFileSync(join(broken, 'SKILL.md'), '# no frontmatter')
}

describe('local skills', () => {
  it('are listed for the model and read on demand, without asking', async () => {
    t = await openChatHost({
      prefix: 'cairn-skills-',
      models: ['m'],
      beforeOpen: (dir) => writeSkills(join(dir, 'data')),
    })
    const h = t
    const events: AppEvent[] = []
    h.host.hub.subscribe((e) => void events.push(e))
    h.server.enqueue(
      toolCallsReply([{ name: 'use_skill', arguments: '{"name":"pdf-forms"}' }]),
      toolCallsReply([
        { name: 'use_skill', arguments: '{"name":"pdf-forms","file":"reference/fields.md"}' },
      ]),
      toolCallsReply([
        { name: 'use_skill', arguments: '{"name":"pdf-forms","file":"../../secrets.json"}' },
      ]),
      (req) => textReply(`done: ${lastToolContent(req)}`),
    )
    const sent = unwrap(await h.b.request('chat.send', { text: 'fill the form', workspace: h.dir }))
    const ended = await new Promise<void>((resolve) => {
      const check = (): void => {
        const end = events.find(
          (e) =>
            e.event === 'agent' &&
            e.payload.turnId === sent.turnId &&
            e.payload.type === 'turn_end',
        )
        if (end) resolve()
        else setTimeout(check, 30)
      }
      check()
    })
    void ended
    const agent = events.flatMap((e) => (e.event === 'agent' ? [e.payload as AgentEvent] : []))
    // nobody was asked: reading a skill is read-only
    expect(agent.some((e) => e.type === 'permission_request')).toBe(false)
    const results = agent.flatMap((e) => (e.type === 'tool_result' ? [e] : []))
    expect(results.map((r) => r.content)).toEqual([
      `[Skill pdf-forms (local): its instructions]\n${FORMS}`,
      '[File reference/fields.md of the skill pdf-forms]\nDates are YYYY-MM-DD.',
      expect.stringContaining('The file "../../secrets.json" cannot be read'),
    ])
    // the model saw the skill's name and description in use_skill's description
    const first = chatRequests(h)[0]!.body as {
      tools: { function: { name: string; description: string } }[]
    }
    const useSkill = first.tools.find((x) => x.function.name === 'use_skill')
    expect(useSkill?.function.description).toContain(
      '- pdf-forms: Fill in PDF forms. Use when the user asks to complete a form.',
    )
    expect(useSkill?.function.description).not.toContain('broken')
  })

  it('without skills there is no use_skill; a frontmatter is checked', async () => {
    t = await openChatHost({ prefix: 'cairn-no-skills-', models: ['m'] })
    t.server.enqueue(textReply('hi'))
    const events: AppEvent[] = []
    t.host.hub.subscribe((e) => void events.push(e))
    unwrap(await t.b.request('chat.send', { text: 'hello', workspace: t.dir }))
    for (let i = 0; i < 200 && chatRequests(t).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50))
    const body = chatRequests(t)[0]!.body as { tools?: { function: { name: string } }[] }
    expect((body.tools ?? []).map((x) => x.function.name)).not.toContain('use_skill')

    expect(readFrontmatter('---\nname: Bad Name\ndescription: x\n---\n')).toEqual({
      problem: 'its frontmatter needs a name: lowercase letters, digits and "-" (64 at most)',
    })
    const warnings: string[] = []
    const lib = new LocalSkills(skillRoots(join(t.dir, 'nowhere')), (m) => warnings.push(m))
    expect(lib.list()).toEqual([])
  })
})
