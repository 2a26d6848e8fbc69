/**
 * `/assistant` in `cairn chat`: shows the assistant the chat runs with, and switches to
 * another from the next message on (the built CLI against the scripted server).
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, env, stop } = await startCliEnv({ prefix: 'cairn-chat-assistant-', models: ['m1'] }))
})
afterEach(() => stop())

const toolNames = (i: number): string[] =>
  ((server.requests[i]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
    (t) => t.function.name,
  )

it('/assistant shows the chat’s assistant and switches it from the next message on', async () => {
  server.enqueue(textReply('With tools.'), textReply('Without tools.'))
  const r = await runCli(['chat'], {
    env,
    input: '/assistant\nfirst\n/assistant nobody\n/assistant chat\n/assistant\nsecond\n',
  })
  expect(r.code).toBe(0)
  expect(r.stdout).toBe('With tools.\nWithout tools.\n')
  expect(r.stderr).toContain('The assistant is Default.')
  expect(r.stderr).toContain('There is no assistant "nobody".')
  expect(r.stderr).toContain('From your next message on, the assistant is Chat.')
  expect(r.stderr).toContain('The assistant is Chat.')
  // the default assistant offers the built-in tools; "Chat" offers none
  expect(toolNames(0)).toContain('read_file')
  expect(toolNames(1)).toEqual([])
  // the same session went on, now with Chat
  const list = JSON.parse((await runCli(['sessions', 'list', '--json'], { env })).stdout) as {
    sessions: { id: string }[]
  }
  expect(list.sessions).toHaveLength(1)
  const shown = await runCli(['sessions', 'show', list.sessions[0]!.id], { env })
  expect(shown.stdout + shown.stderr).toContain('Chat')
})
