/** First run: providers.status, providers.detect, and the settings patch onboarding saves. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import {
  baseUrlProblem,
  providerId,
  providerPatch,
} from '../../src-renderer/src/features/onboarding/provider-patch'
import { startScriptedServer, type ScriptedServer } from '../support/openai-server'
import { unwrap } from '../support/bridges'
import type { Result } from '../../src-preload/contract/routes'

let dir: string
let server: ScriptedServer
const hosts: AppHost[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-first-run-'))
  server = await startScriptedServer({ models: ['m', 'm-large'] })
})
afterAll(async () => {
  for (const h of hosts) await h.shutdown()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

async function host(name: string, env: NodeJS.ProcessEnv): Promise<AppHost> {
  const h = await createAppHost({ dataDir: join(dir, name), hostKind: 'web', version: 't', env })
  hosts.push(h)
  return h
}

const route = async <T>(h: AppHost, name: string, input: unknown = {}): Promise<T> =>
  unwrap((await h.router.handle(name, input)) as Result<T>)

describe('first run', () => {
  it('providers.detect reports every candidate, reachable or not, with its models', async () => {
    const h = await host('detect', {
      CAIRN_LOCAL_SERVERS: `${server.baseURL}, http://127.0.0.1:45999/v1`,
    })
    const r = await route<{ servers: unknown[] }>(h, 'providers.detect')
    expect(r.servers).toEqual([
      {
        name: server.baseURL,
        baseURL: server.baseURL,
        reachable: true,
        models: ['m', 'm-large'],
        error: null,
      },
      {
        name: 'http://127.0.0.1:45999/v1',
        baseURL: 'http://127.0.0.1:45999/v1',
        reachable: false,
        models: [],
        error: 'nothing is listening there',
      },
    ])
  })

  it('providers.status: not configured, then configured by the environment or the settings', async () => {
    const fresh = await host('status', {})
    expect(await route(fresh, 'providers.status')).toEqual({
      configured: false,
      source: null,
      label: null,
    })
    const env = await host('status-env', { CAIRN_BASE_URL: server.baseURL })
    expect(await route(env, 'providers.status')).toMatchObject({ configured: true, source: 'env' })

    const settings = await route<{ providers: [] }>(fresh, 'settings.get')
    await route(
      fresh,
      'settings.update',
      providerPatch(settings.providers, {
        id: 'local',
        name: 'Local',
        baseURL: server.baseURL,
        model: 'm',
        apiKey: 'sk-local-1',
      }),
    )
    expect(await route(fresh, 'providers.status')).toEqual({
      configured: true,
      source: 'settings',
      label: 'Local',
    })
    // the chat a new turn would use: the saved provider and model
    expect(await route(fresh, 'providers.models')).toEqual({
      models: ['m', 'm-large'],
      defaultModel: 'm',
    })
  })
})

describe('the provider patch', () => {
  it('adds the provider, replaces one of the same id, makes it active and keeps no masked key', () => {
    const patch = providerPatch(
      [
        { id: 'a', name: 'A', baseURL: 'http://a/v1', apiKey: 'sk-…abcd' },
        { id: 'b', name: 'B', baseURL: 'http://b/v1', apiKey: null },
      ],
      { id: 'b', name: 'B2', baseURL: 'http://b2/v1', model: 'x', apiKey: 'k' },
    )
    expect(patch).toEqual({
      providers: [
        { id: 'a', name: 'A', baseURL: 'http://a/v1' },
        { id: 'b', name: 'B2', baseURL: 'http://b2/v1', defaultModel: 'x' },
      ],
      activeProviderId: 'b',
      activeModel: 'x',
      apiKeys: { b: 'k' },
    })
    expect(
      providerPatch([], { id: 'c', name: 'C', baseURL: 'http://c', model: 'y' }),
    ).not.toHaveProperty('apiKeys')
  })

  it('names ids and checks base URLs', () => {
    expect(providerId('LM Studio')).toBe('lm-studio')
    expect(providerId('127.0.0.1:8080')).toBe('127-0-0-1-8080')
    expect(providerId('!!!')).toBe('local')
    expect(baseUrlProblem('')).toMatch(/Enter/)
    expect(baseUrlProblem('localhost:8080')).toMatch(/http/)
    expect(baseUrlProblem('ftp://x')).toMatch(/http/)
    expect(baseUrlProblem(' http://127.0.0.1:8080/v1 ')).toBeNull()
  })
})
