/** providers.info: what the settings screen shows about a server and its model. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerInfoView } from '../../src-preload/contract/app-dto'
import type { Result } from '../../src-preload/contract/routes'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { ollamaRoutes, startRouteServer, type RouteServer } from '../support/route-server'

let dir: string
let server: RouteServer
let host: AppHost

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-provider-info-'))
  server = await startRouteServer(
    ollamaRoutes({
      model: 'qwen3',
      capabilities: ['completion', 'tools', 'thinking'],
      trainedContext: 40_960,
      loadedContext: 8_192,
    }),
  )
  host = await createAppHost({ dataDir: dir, hostKind: 'web', version: 't', env: {} })
})
afterAll(async () => {
  await host.shutdown()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

const info = (input: unknown) =>
  host.router.handle('providers.info', input) as Promise<Result<ServerInfoView>>

describe('providers.info', () => {
  it('says the kind of server, what the model takes and the window it would get', async () => {
    const r = await info({ baseURL: `${server.root}/v1`, model: 'qwen3', ollamaMaxContext: 16_384 })
    expect(r).toEqual({
      ok: true,
      data: {
        kind: 'ollama',
        model: { tools: true, vision: false, thinking: true, thinkingControl: 'think' },
        contextWindow: {
          tokens: 16_384,
          source: "num_ctx sent to Ollama: the model's trained 40960, at most the settings' 16384",
        },
        trainedContext: 40_960,
        problems: [],
      },
    })
    const compatible = await info({
      baseURL: `${server.root}/v1`,
      model: 'qwen3',
      ollamaNativeApi: false,
    })
    expect(compatible.ok && compatible.data.contextWindow).toEqual({
      tokens: 8_192,
      source: 'Ollama /api/ps (loaded num_ctx)',
    })
  })

  it('without a model, only the kind; a URL that is not http(s) is refused', async () => {
    const r = await info({ baseURL: `${server.root}/v1` })
    expect(r).toMatchObject({ ok: true, data: { kind: 'ollama', model: null } })
    const bad = await info({ baseURL: 'file:///etc/passwd' })
    expect(bad.ok).toBe(false)
  })
})
