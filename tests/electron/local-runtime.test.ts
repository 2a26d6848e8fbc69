/**
 * The desktop app's local model runtime: started through Electron's utility process API
 * (here a real Node child behind the mock's `utilityProcess.fork`), handed its secret, and
 * serving the tiny model's list on 127.0.0.1 only to requests that carry the secret.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ModelIndex } from '../../src-main/adapters/local-models/model-index'
import { LocalRuntime } from '../../src-main/services/providers/local-runtime'
import { RUNTIME_SCRIPT, TINY_MODEL } from '../local-models/support'

vi.mock('electron', () => import('./electron-mock'))

describe('desktop: the local runtime in a utility process', () => {
  let dir: string
  let runtime: LocalRuntime | null = null
  afterEach(async () => {
    await runtime?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('starts, serves the models to Cairn only, and stops', async () => {
    const { utilityProcess } = await import('electron')
    const { utilityRuntimeLauncher, runtimeScript } =
      await import('../../src-main/electron/runtime-process')
    expect(runtimeScript('/app.asar')).toBe(join('/app.asar', 'out', 'main', 'local-runtime.js'))
    dir = mkdtempSync(join(tmpdir(), 'cairn-utility-'))
    await new ModelIndex(dir).addFile(TINY_MODEL, 'tiny')
    runtime = new LocalRuntime(utilityRuntimeLauncher(utilityProcess, RUNTIME_SCRIPT), () => ({
      dataDir: dir,
      idleMs: 60_000,
      threads: 1,
      maxContext: 512,
    }))
    const address = await runtime.ensure()
    expect(address.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    const forks = (
      utilityProcess as unknown as { forks: { script: string; options: { serviceName: string } }[] }
    ).forks
    expect(forks.at(-1)).toMatchObject({
      script: RUNTIME_SCRIPT,
      options: { serviceName: 'Cairn local model runtime' },
    })

    const refused = await fetch(`${address.baseURL}/models`)
    expect(refused.status).toBe(401)
    const listed = await fetch(`${address.baseURL}/models`, {
      headers: { authorization: `Bearer ${address.apiKey}` },
    })
    const body = (await listed.json()) as {
      data: { id: string; owned_by: string; context_length: number }[]
    }
    expect(body.data).toEqual([
      expect.objectContaining({ id: 'tiny', owned_by: 'cairn-local', context_length: 512 }),
    ])

    const pid = runtime.pid
    await runtime.stop()
    expect(runtime.pid).toBeNull()
    expect(() => process.kill(pid!, 0)).toThrow()
  })
})
