/**
 * A question answered from one PDF of a project's knowledge sources, as a user runs it on
 * the built CLI: the chat is in the project, the model (the scripted server) is offered
 * search_knowledge, calls it, gets the PDF's passage with its file and page, and answers
 * citing it; the read-only policy runs the call without asking. A chat in no project is
 * not offered the tool.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openAppServices } from '../../src-main/services/host/app-services'
import { runCli, startCliEnv } from '../support/cli'
import {
  lastToolContent,
  textReply,
  toolCallsReply,
  type ScriptedServer,
} from '../support/openai-server'
import { textPdf } from '../support/attachment-files'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
let docs: string
let dataDir: string

beforeEach(async () => {
  const cli = await startCliEnv({ prefix: 'cairn-knowledge-turn-', models: ['m'] })
  ;({ server, env, stop } = cli)
  dataDir = env['CAIRN_DATA_DIR']!
  docs = join(dataDir, '..', 'docs')
  mkdirSync(docs, { recursive: true })
  writeFileSync(
    join(docs, 'manual.pdf'),
    await textPdf(['Contents.', 'The lighthouse keeper winds the clock every Sunday.']),
  )
  writeFileSync(join(docs, 'birds.md'), '# Birds\n\nThe heron fishes at dawn.\n')
})
afterEach(async () => {
  await stop()
})

/** a chat in the project Boats (and one in none), made as the window would */
function chats(): { inProject: string; loose: string } {
  const app = openAppServices(dataDir)
  try {
    app.projects.create({ name: 'Boats', instructions: '' })
    const inProject = app.store.createSession().id
    app.projects.moveSession(inProject, 'Boats')
    return { inProject, loose: app.store.createSession().id }
  } finally {
    app.close()
  }
}

const toolNames = (body: unknown): string[] =>
  ((body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name)

describe('search_knowledge in a turn', { timeout: 120_000 }, () => {
  it('answers from the one PDF that holds the answer, citing its file and page', async () => {
    const { inProject, loose } = chats()
    expect((await runCli(['knowledge', 'add', docs, '--project', 'Boats'], { env })).code).toBe(0)
    server.enqueue(
      toolCallsReply([
        { name: 'search_knowledge', arguments: JSON.stringify({ query: 'who winds the clock' }) },
      ]),
    )
    server.enqueue(textReply('The lighthouse keeper does, every Sunday [manual.pdf, page 2].'))
    const r = await runCli(
      ['--session', inProject, '--approve', 'read-only', 'Who winds the clock?'],
      { env },
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('[manual.pdf, page 2]')
    expect(toolNames(server.requests[0]!.body)).toContain('search_knowledge')
    const result = lastToolContent(server.requests[1]!)
    expect(result).toContain(`[1] ${join(docs, 'manual.pdf')}, page 2`)
    expect(result).toContain('The lighthouse keeper winds the clock every Sunday.')
    // the PDF's passage comes first, before any chunk that shares only "the"
    expect(result.indexOf('manual.pdf')).toBeLessThan(result.indexOf('birds.md') >>> 0)

    // a chat in no project has no sources: the tool is not offered
    server.enqueue(textReply('No documents here.'))
    expect(
      (await runCli(['--session', loose, '--approve', 'read-only', 'Who?'], { env })).code,
    ).toBe(0)
    expect(toolNames(server.requests.at(-1)!.body)).not.toContain('search_knowledge')
  })
})
