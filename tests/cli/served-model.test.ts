/** `cairn sessions show` says which model answered when the server names another one. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-',
    models: ['m1'],
    modelEnv: false,
  }))
})
afterEach(() => stop())

describe('the served model in cairn sessions show', () => {
  it('is shown beside the model asked for, and only when they differ', async () => {
    const reply = textReply('From the alias.')
    if (reply.type !== 'sse') throw new Error('an event stream was expected')
    server.enqueue(
      {
        ...reply,
        items: reply.items.map((i) => ('choices' in i ? { ...i, model: 'm1-2025' } : i)),
      },
      textReply('From m1 itself.'),
    )
    const first = await runCli(['--base-url', server.baseURL, '--model', 'm1', 'hi'], { env })
    expect(first.code).toBe(0)
    const list = await runCli(['sessions', 'list', '--json'], { env })
    const id = (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions[0]!.id
    const second = await runCli(['--base-url', server.baseURL, '--session', id, 'again'], { env })
    expect(second.code).toBe(0)

    const show = await runCli(['sessions', 'show', id], { env })
    expect(show.code).toBe(0)
    const heads = show.stdout.split('\n').filter((l) => /^\[\d+\] assistant/.test(l))
    expect(heads).toEqual(['[2] assistant (answered by m1-2025, asked for m1)', '[4] assistant'])
  })
})
