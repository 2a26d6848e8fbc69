/**
 * The conversation tree on the command line (issue 21): `--from` starts a branch at an
 * earlier message, `sessions show` prints the open branch (`--tree`: every branch, `--json`:
 * each message's id and parent), `sessions fork --at` makes a new chat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCliEnv } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
let id: string

type Shown = {
  session: { leafSeq: number | null; title: string; origin?: unknown }
  messages: { id: string; seq: number; parentSeq: number | null; content: string }[]
  openBranch: number[]
}
const show = async (sessionId: string): Promise<Shown> =>
  JSON.parse((await runCli(['sessions', 'show', sessionId, '--json'], { env })).stdout) as Shown

/** the contents the model was sent in its last request, without the system prompt */
const lastSent = (): unknown[] =>
  (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role !== 'system')
    .map((m) => m.content)

beforeAll(async () => {
  ;({ server, env, stop } = await startCliEnv({ prefix: 'cairn-cli-branches-' }))
  server.enqueue(textReply('Granite.'), textReply('Basalt.'), textReply('Obsidian.'))
  await runCli(['Name a stone'], { env })
  const { sessions } = JSON.parse(
    (await runCli(['sessions', 'list', '--json'], { env })).stdout,
  ) as { sessions: { id: string }[] }
  id = sessions[0]!.id
  await runCli(['--session', id, 'Another'], { env })
  await runCli(['--session', id, 'And a third'], { env })
}, 240_000)
afterAll(() => stop())

describe('a conversation tree on the command line', { timeout: 180_000 }, () => {
  it('--from sends a message after an earlier one: the model gets the path to it, nothing after', async () => {
    server.enqueue(textReply('Marble, from message 2.'))
    const r = await runCli(['--session', id.slice(0, 8), '--from', '2', 'A metamorphic one?'], {
      env,
    })
    expect(r.code).toBe(0)
    expect(lastSent()).toEqual(['Name a stone', 'Granite.', 'A metamorphic one?'])
    const shown = await show(id)
    const last = shown.messages.at(-2)!
    expect([last.seq, last.parentSeq, last.content]).toEqual([7, 2, 'A metamorphic one?'])
    expect(shown.openBranch).toEqual([1, 2, 7, 8])
    expect(shown.messages).toHaveLength(8)
    expect(shown.messages.every((m) => typeof m.id === 'string')).toBe(true)
  })

  it('sessions show prints the open branch; --tree draws every branch with its numbers', async () => {
    const plain = await runCli(['sessions', 'show', id], { env })
    expect(plain.stdout).toContain('Marble, from message 2.')
    expect(plain.stdout).not.toContain('Basalt.')
    expect(plain.stdout).toContain('4 message(s) on other branches')
    const tree = await runCli(['sessions', 'show', id, '--tree'], { env })
    expect(tree.code).toBe(0)
    const lines = tree.stdout.trim().split('\n').slice(1)
    expect(lines).toEqual([
      '*[1] user: Name a stone',
      '*[2] assistant: Granite.',
      '├─  [3] user: Another',
      '│   [4] assistant: Basalt.',
      '│   [5] user: And a third',
      '│   [6] assistant: Obsidian.',
      '└─ *[7] user: A metamorphic one?',
      '   *[8] assistant: Marble, from message 2.  (open)',
    ])
  })

  it('--from a message that is not there says so, and nothing is sent or stored', async () => {
    const before = server.requests.length
    const r = await runCli(['--session', id, '--from', '99', 'Hello?'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('There is no message number 99 in this session.')
    expect(server.requests.length).toBe(before)
    expect((await show(id)).messages).toHaveLength(8)
    const usage = await runCli(['--from', '2', 'Hello?'], { env })
    expect(usage.code).toBe(2)
  })

  it('sessions fork --at makes a new chat of the path up to a message; the original is untouched', async () => {
    const r = await runCli(['sessions', 'fork', id, '--at', '4', '--json'], { env })
    expect(r.code).toBe(0)
    const { session } = JSON.parse(r.stdout) as { session: { id: string; title: string } }
    expect(session.title).toBe('Name a stone · branch at 4')
    const fork = await show(session.id)
    expect(fork.messages.map((m) => [m.seq, m.parentSeq, m.content])).toEqual([
      [1, null, 'Name a stone'],
      [2, 1, 'Granite.'],
      [3, 2, 'Another'],
      [4, 3, 'Basalt.'],
    ])
    expect(fork.session.origin).toMatchObject({ kind: 'branch', sessionId: id, messageSeq: 4 })
    expect((await show(id)).messages).toHaveLength(8)
    // the new chat goes on like any other
    server.enqueue(textReply('Slate.'))
    await runCli(['--session', session.id, 'One more'], { env })
    expect(lastSent()).toEqual(['Name a stone', 'Granite.', 'Another', 'Basalt.', 'One more'])
  })
})
