/**
 * `cairn models` and a turn on the `local` provider, through the built CLI as a user runs
 * it: a fresh data directory, no provider, no network; the tiny real model added, listed,
 * chatted with (the runtime is the built out/cli/local-runtime.js), removed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { startModelHub } from '../support/model-hub'
import { TINY_MODEL, TINY_SHA256, writeTinySettings } from '../local-models/support'

describe('cairn models', () => {
  let dir: string
  let env: NodeJS.ProcessEnv
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-cli-models-'))
    env = { CAIRN_DATA_DIR: join(dir, 'data'), CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' }
    writeTinySettings(join(dir, 'data'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('add prints the name; list --json shows it; a turn with --provider local answers; remove', async () => {
    const add = await runCli(['models', 'add', TINY_MODEL, '--name', 'tiny'], { env })
    expect(add.code).toBe(0)
    expect(add.stdout).toBe('tiny\n')
    expect(add.stderr).toContain('cairn --provider local --model tiny')

    const list = await runCli(['models', 'list', '--json'], { env })
    const listed = JSON.parse(list.stdout) as { models: { name: string; sha256: string }[] }
    expect(listed.models).toEqual([expect.objectContaining({ name: 'tiny', sha256: TINY_SHA256 })])
    expect((await runCli(['models', 'list'], { env })).stdout).toMatch(
      /^tiny {2}1 MB {2}llama · 2048 tokens/,
    )

    const turn = await runCli(['--provider', 'local', '--model', 'tiny', 'Once upon a time'], {
      env,
    })
    expect(turn.stderr).toContain('tiny at Local models')
    expect(turn.code).toBe(0)
    expect(turn.stdout.trim().length).toBeGreaterThan(10)
    // the runtime's own counts, not an estimate
    expect(turn.stderr).toMatch(/\d+ tokens in, \d+ out ·/)
    expect(turn.stderr).not.toContain('estimated')

    // with nothing else configured, the local model is the default
    const plain = await runCli(['The end'], { env })
    expect(plain.code).toBe(0)
    expect(plain.stderr).toContain('tiny at Local models')

    expect((await runCli(['models', 'remove', 'tiny'], { env })).code).toBe(0)
    const gone = await runCli(['--provider', 'local', 'hi'], { env })
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain('No local model has been added yet')
  }, 120_000)

  it('pull downloads from the hub (the setting), checks it and prints the name; an unreachable hub says so', async () => {
    const hub = await startModelHub([
      { repo: 'ggml-org/tiny-GGUF', files: { 'stories260K-F32.gguf': readFileSync(TINY_MODEL) } },
    ])
    try {
      writeTinySettings(join(dir, 'data'), {
        localModels: { idleMinutes: 10, threads: 1, maxContext: 512, hubURL: hub.url },
      })
      const r = await runCli(['models', 'pull', 'ggml-org/tiny-GGUF', '--name', 'pulled'], { env })
      expect(r.stderr).toContain('Downloading ggml-org/tiny-GGUF/stories260K-F32.gguf (1 MB)')
      expect(r.stderr).toContain('100 %')
      expect(r.code).toBe(0)
      expect(r.stdout).toBe('pulled\n')
      const listed = await runCli(['models', 'list', '--json'], { env })
      expect(listed.stdout).toContain('"repo":"ggml-org/tiny-GGUF"')
    } finally {
      await hub.close()
    }
    writeTinySettings(join(dir, 'data'))
    const away = await runCli(['models', 'pull', 'ggml-org/tiny-GGUF'], { env })
    expect(away.code).toBe(1)
    expect(away.stderr).toContain('Could not reach the model hub at http://127.0.0.1:9')
  })

  it('a file that is not GGUF: exit 1 and what to do', async () => {
    const r = await runCli(['models', 'add', join(process.cwd(), 'package.json')], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/is not a GGUF model/)
    expect((await runCli(['models', 'list', '--json'], { env })).stdout).toContain('"models":[]')
  })
})
