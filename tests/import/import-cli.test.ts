/**
 * `cairn sessions import` (issue 21): the built CLI imports in its worker thread, prints
 * what it did, adds nothing the second time, names what it skipped, refuses a file that
 * is not an export with exit status 2 and the reason, and the imported chat is found by
 * search and continued with the scripted model.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCliEnv, type CliEnv } from '../support/cli'
import { textReply } from '../support/openai-server'

const FIXTURES = join(__dirname, '..', 'fixtures', 'import')
let cli: CliEnv

beforeAll(async () => {
  cli = await startCliEnv({ prefix: 'cairn-cli-import-' })
}, 120_000)
afterAll(() => cli.stop())

describe('cairn sessions import', { timeout: 120_000 }, () => {
  it('imports a ChatGPT .zip and a Claude export, then adds nothing the second time', async () => {
    const env = cli.env
    const first = await runCli(['sessions', 'import', join(FIXTURES, 'chatgpt-export.zip')], {
      env,
    })
    expect(first.code).toBe(0)
    expect(first.stdout).toContain(
      'Imported: 2 new chats, 0 chats with new messages, 9 messages added',
    )
    const claude = await runCli(
      ['sessions', 'import', join(FIXTURES, 'claude-conversations.json'), '--json'],
      { env },
    )
    const { summary } = JSON.parse(claude.stdout) as {
      summary: { created: number; sources: string[] }
    }
    expect(summary).toMatchObject({ created: 2, sources: ['claude'] })
    const again = await runCli(
      ['sessions', 'import', join(FIXTURES, 'chatgpt-conversations.json')],
      {
        env,
      },
    )
    expect(again.stdout).toContain(
      'Imported: 0 new chats, 0 chats with new messages, 0 messages added; 2 conversations already here.',
    )
    const list = JSON.parse((await runCli(['sessions', 'list', '--json'], { env })).stdout) as {
      total: number
    }
    expect(list.total).toBe(4)
  })

  it('finds a word of each export, and continues an imported chat with the model', async () => {
    const env = cli.env
    const hits = JSON.parse(
      (await runCli(['sessions', 'search', 'axolotl', '--json'], { env })).stdout,
    ) as {
      hits: { sessionId: string; sessionTitle: string }[]
    }
    expect(hits.hits[0]?.sessionTitle).toBe('Axolotl tank setup')
    const quokka = JSON.parse(
      (await runCli(['sessions', 'search', 'Rottnest', '--json'], { env })).stdout,
    ) as {
      hits: { sessionTitle: string }[]
    }
    expect(quokka.hits.map((h) => h.sessionTitle)).toContain('Quokka facts')
    cli.server.enqueue(textReply('Feed them twice a week.'))
    const sessionId = hits.hits[0]!.sessionId
    const r = await runCli(['--session', sessionId, 'How often should I feed it?'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Feed them twice a week.')
    // the model was sent the open branch of the imported chat, then the new question
    const sent = (
      cli.server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }
    ).messages
      .filter((m) => m.role !== 'system')
      .map((m) => m.content)
    expect(sent.slice(-3)).toEqual([
      'And what should they eat?',
      'Earthworms and sinking pellets.',
      'How often should I feed it?',
    ])
  })

  it('names what it skipped; a file that is not an export is refused with status 2', async () => {
    const env = cli.env
    const whole = readFileSync(join(FIXTURES, 'chatgpt-conversations-newer.json'), 'utf8')
    const cut = join(cli.dir, 'cut.json')
    writeFileSync(cut, whole.slice(0, whole.indexOf('Numbat') + 10))
    const r = await runCli(['sessions', 'import', cut], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('1 chat with new messages, 2 messages added')
    expect(r.stdout).toContain('Skipped conversation 3: the file ends before conversation 3 does.')
    const notes = join(cli.dir, 'notes.json')
    copyFileSync(join(FIXTURES, 'README.md'), notes)
    const bad = await runCli(['sessions', 'import', notes], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('notes.json cannot be imported: it is not a JSON export')
  })
})
