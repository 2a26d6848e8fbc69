/**
 * An API key given through the environment is taken out of process.env when a host starts:
 * programs started later do not inherit it, and the host still authenticates with it.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Result } from '../../src-preload/contract/routes'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { SECRET_ENV_NAMES, withdrawSecretEnv } from '../../src-main/services/host/secret-env'
import { startScriptedServer, type ScriptedServer } from '../support/openai-server'

const KEY = 'sk-cairn-test-withdrawn-key'
const saved = Object.fromEntries(
  ['CAIRN_API_KEY', 'OPENAI_API_KEY', 'CAIRN_BASE_URL'].map((n) => [n, process.env[n]]),
)
const cleanup: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

function childSees(name: string): string {
  const r = spawnSync(process.execPath, [
    '-e',
    `process.stdout.write(process.env.${name} ?? 'none')`,
  ])
  return r.stdout.toString()
}

describe('API keys in the environment', () => {
  it('withdrawSecretEnv keeps the keys in its copy and takes them out of process.env', () => {
    process.env['CAIRN_API_KEY'] = KEY
    process.env['OPENAI_API_KEY'] = KEY
    expect(childSees('CAIRN_API_KEY')).toBe(KEY)
    const copy = withdrawSecretEnv(process.env)
    expect(copy['CAIRN_API_KEY']).toBe(KEY)
    expect(copy['OPENAI_API_KEY']).toBe(KEY)
    for (const name of SECRET_ENV_NAMES) expect(process.env[name]).toBeUndefined()
    expect(childSees('CAIRN_API_KEY')).toBe('none')
    expect(childSees('OPENAI_API_KEY')).toBe('none')
    // another environment object is copied, never changed
    const other = { CAIRN_API_KEY: KEY }
    withdrawSecretEnv(other)
    expect(other.CAIRN_API_KEY).toBe(KEY)
  })

  it('a host started from process.env still uses the key it withdrew', async () => {
    const server: ScriptedServer = await startScriptedServer({ models: ['m1'], apiKey: KEY })
    cleanup.push(() => server.close())
    const dir = mkdtempSync(join(tmpdir(), 'cairn-secret-env-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    process.env['CAIRN_BASE_URL'] = server.baseURL
    process.env['CAIRN_API_KEY'] = KEY
    const host: AppHost = await createAppHost({
      dataDir: join(dir, 'data'),
      hostKind: 'web',
      version: 't',
    })
    cleanup.push(() => host.shutdown())
    expect(process.env['CAIRN_API_KEY']).toBeUndefined()
    expect(childSees('CAIRN_API_KEY')).toBe('none')
    const r = (await host.router.handle('providers.models', {})) as Result<{ models: string[] }>
    expect(r).toMatchObject({ ok: true, data: { models: ['m1'] } })
  })
})
