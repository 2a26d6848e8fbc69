/**
 * A long session with a small window keeps answering from the CLI: the middle is
 * summarized, and `cairn sessions show` still prints every original message, with the
 * summary shown as one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { startCliEnv, runCli } from '../support/cli'
import { completionReply, textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let dataDir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, dataDir, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-compaction-',
    models: ['m1'],
    modelEnv: false,
  }))
})
afterEach(() => stop())

describe('a long session in a small window, from the CLI', () => {
  it('is summarized and keeps answering; sessions show prints the originals and the summary as such', async () => {
    const store = createSessionStore(dataDir)
    const session = store.createSession({ provider: server.baseURL, model: 'm1' })
    for (let i = 0; i < 12; i++) {
      store.appendMessage(session.id, { role: 'user', content: `question ${i} ${'q'.repeat(300)}` })
      store.appendMessage(session.id, {
        role: 'assistant',
        content: `answer ${i} ${'a'.repeat(500)}`,
        provider: server.baseURL,
        model: 'm1',
      })
    }
    const pinned = store.listMessages(session.id)[5]!
    store.setMessagePinned(session.id, pinned.id, true)
    store.close()
    server.enqueue(
      completionReply('Earlier: twelve questions.', { id: 's', model: 'm1' }),
      textReply('Still here.'),
    )
    const run = await runCli(
      ['--base-url', server.baseURL, '--session', session.id, '--context-window', '2000', 'go on'],
      { env },
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Still here.')
    expect(server.requests).toHaveLength(2)
    expect(JSON.stringify(server.requests[1]!.body)).toContain('Earlier: twelve questions.')

    const show = await runCli(['sessions', 'show', session.id], { env })
    expect(show.code).toBe(0)
    for (let i = 0; i < 12; i++) {
      expect(show.stdout).toContain(`answer ${i} ${'a'.repeat(500)}`)
      expect(show.stdout).toContain(`question ${i} ${'q'.repeat(300)}`)
    }
    expect(show.stdout).toMatch(
      /\[\d+\] summary of messages 2–\d+ \(sent to the model in their place; they are kept above\)\nEarlier: twelve questions\./,
    )
    expect(show.stdout).toContain('[6] assistant (kept in context)')
  })
})
