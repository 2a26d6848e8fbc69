/** The CLI says on stderr when an answer was cut at the model's output limit. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadRecording, replay } from '../llm/recordings'
import { runCli } from '../support/cli'
import { startScriptedServer, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let dataDir: string
let env: NodeJS.ProcessEnv
beforeEach(async () => {
  server = await startScriptedServer({ models: ['m1'] })
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-cli-'))
  env = { CAIRN_DATA_DIR: dataDir, CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' }
})
afterEach(async () => {
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('an answer cut at the output limit', () => {
  it('is printed, then a warning on stderr says it was cut', async () => {
    server.enqueue(replay(loadRecording('llamacpp-cut-at-length.sse')))
    const r = await runCli(['--base-url', server.baseURL, '--model', 'm1', 'Why local?'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Here are three reasons:\n\n1. Speed\n')
    expect(r.stderr).toContain("Warning: The answer was cut at the model's output limit.")
  })
})
