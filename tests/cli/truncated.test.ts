/** The CLI says on stderr when an answer was cut at the model's output limit. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadRecording, replay } from '../llm/recordings'
import { startCliEnv, runCli } from '../support/cli'
import type { ScriptedServer } from '../support/openai-server'

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

describe('an answer cut at the output limit', () => {
  it('is printed, then a warning on stderr says it was cut', async () => {
    server.enqueue(replay(loadRecording('llamacpp-cut-at-length.sse')))
    const r = await runCli(['--base-url', server.baseURL, '--model', 'm1', 'Why local?'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Here are three reasons:\n\n1. Speed\n')
    expect(r.stderr).toContain("Warning: The answer was cut at the model's output limit.")
  })
})
