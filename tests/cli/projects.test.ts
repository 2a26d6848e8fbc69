/**
 * `cairn projects …` and `--project <name>`, with the built CLI in its own process and the
 * scripted OpenAI server: the project's instructions reach the model's request, a new chat
 * in it takes its model and works in its folder, a continued chat stays in its project.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import {
  textReply,
  toolCallsReply,
  type RecordedRequest,
  type ScriptedServer,
} from '../support/openai-server'

let server: ScriptedServer
let dir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>

beforeAll(async () => {
  ;({ server, dir, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-projects-',
    models: ['m', 'm-project'],
  }))
})
afterAll(() => stop())
beforeEach(() => {
  server.requests.length = 0
})

const cli = (...args: string[]) => runCli(args, { env })
const systemOf = (req: RecordedRequest | undefined): string =>
  String((req?.body.messages as { role: string; content: unknown }[])[0]?.content)

interface ListedProject {
  id: string
  name: string
  instructions: string
  model?: string
  workspace?: string
  chatCount: number
}
const projects = async (): Promise<ListedProject[]> =>
  (JSON.parse((await cli('projects', 'list', '--json')).stdout) as { projects: ListedProject[] })
    .projects
const sessions = async () =>
  (
    JSON.parse((await cli('sessions', 'list', '--json')).stdout) as {
      sessions: { id: string; projectId: string | null; workspace: string | null }[]
    }
  ).sessions

describe('cairn projects', () => {
  it('creates, lists, shows, edits and deletes a project; its chats move to no project', async () => {
    expect((await cli('projects', 'list')).stdout).toContain('No projects yet')
    const folder = join(dir, 'thesis')
    mkdirSync(folder)
    const made = await cli(
      'projects',
      'create',
      'Thesis',
      '--instructions',
      'Answer in French.',
      '--workspace',
      folder,
    )
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    expect(made.stdout).toContain('Created the project "Thesis"')
    expect(await projects()).toEqual([
      expect.objectContaining({
        name: 'Thesis',
        instructions: 'Answer in French.',
        workspace: folder,
        chatCount: 0,
      }),
    ])

    const taken = await cli('projects', 'create', 'THESIS')
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('A project named "Thesis" exists already')

    const edited = await cli('projects', 'edit', 'thesis', '--model', 'm-project', '--name', 'PhD')
    expect(edited.code).toBe(0)
    const shown = await cli('projects', 'show', 'PhD')
    expect(shown.stdout).toMatch(/Model:\s+m-project/)
    expect(shown.stdout).toMatch(/Instructions:\s+Answer in French\./)

    server.enqueue(textReply('Bonjour.'))
    const turn = await cli('--project', 'phd', 'hello')
    expect(turn.code).toBe(0)
    const [chat] = await sessions()
    expect(chat!.projectId).toBe((await projects())[0]!.id)

    const gone = await cli('projects', 'delete', 'PhD')
    expect(gone.stdout).toContain('its 1 chat moved to "No project"')
    expect(await projects()).toEqual([])
    expect((await sessions()).find((s) => s.id === chat!.id)?.projectId).toBeNull()
  })

  it('a new chat in a project: its instructions in the system prompt, its model, its folder', async () => {
    const folder = join(dir, 'notes')
    mkdirSync(folder)
    writeFileSync(join(folder, 'plan.txt'), 'the plan is in here')
    await cli(
      'projects',
      'create',
      'Notes',
      '--instructions',
      'Always cite the file you read.',
      '--workspace',
      folder,
      '--model',
      'm-project',
    )
    server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'read_file', arguments: '{"path":"plan.txt"}' }]),
    )
    server.enqueue(textReply('It says the plan is in here (plan.txt).'))
    const turn = await cli('--project', 'Notes', '--approve', 'all', 'what is the plan?')
    expect(turn.stderr).not.toContain('rror')
    expect(turn.code).toBe(0)
    const first = server.requests[0]
    expect(first!.body.model).toBe('m-project')
    expect(systemOf(first)).toContain('# Project: Notes\nAlways cite the file you read.')
    expect(systemOf(first)).toContain(folder)
    // the file tool read the project's folder
    const toolResult = (server.requests[1]!.body.messages as { role: string; content: string }[])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content)
      .join('\n')
    expect(toolResult).toContain('the plan is in here')

    // a continued chat stays in its project: the instructions are sent again
    const chat = (await sessions()).find((s) => s.workspace === folder)!
    server.enqueue(textReply('Still here.'))
    const again = await cli('--session', chat.id, 'and then?')
    expect(again.code).toBe(0)
    expect(systemOf(server.requests[2])).toContain('Always cite the file you read.')
  })

  it('refuses an unknown project, and a --project that is not the continued chat’s', async () => {
    const unknown = await cli('--project', 'Nowhere', 'hi')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('there is no project "Nowhere"')
    expect(server.requests).toHaveLength(0)

    await cli('projects', 'create', 'Other')
    server.enqueue(textReply('ok'))
    await cli('hi there')
    const loose = (await sessions()).find((s) => s.projectId === null)!
    const mixed = await cli('--session', loose.id, '--project', 'Other', 'hi')
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain('the session is in no project')

    const relative = await cli('projects', 'edit', 'Other', '--unset', 'colour')
    expect(relative.code).toBe(2)
    expect(relative.stderr).toContain('--unset takes assistant, model or workspace')
  })
})
