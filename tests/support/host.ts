/**
 * A UI host (`createAppHost`) on a temporary data directory, for tests that go through the
 * routes: the directory, the host, the in-process IPC bridge and one `stop()` that closes
 * them in order. `openChatHost` adds the scripted OpenAI-compatible server as the model.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import type { RouteInput } from '../../src-preload/contract/routes'
import {
  createAppHost,
  type AppHost,
  type AppHostOptions,
} from '../../src-main/services/host/app-host'
import { ipcBridge, unwrap, type TestBridge } from './bridges'
import { startScriptedServer, type ScriptedServer } from './openai-server'

/** no local server is found: the address of the discard port */
export const NO_LOCAL_SERVERS = { CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' }

export interface TestHostOptions extends Omit<
  AppHostOptions,
  'dataDir' | 'hostKind' | 'version' | 'mcpConfigFile'
> {
  /** the temporary directory's name, e.g. `cairn-titles-` */
  prefix: string
  /** default: 'electron' */
  hostKind?: AppHostOptions['hostKind']
  /** written to `<dir>/mcp.json` and passed as `--mcp-config` */
  mcpServers?: Record<string, unknown>
  /** runs before the host opens, e.g. to store sessions of an earlier run */
  beforeOpen?: (dir: string) => void
  /** false: no window attached (the test calls `host.router` itself); default true */
  bridge?: boolean
}

export interface TestHost {
  /** the temporary directory; the data directory is `<dir>/data` */
  dir: string
  host: AppHost
  /** the in-process IPC bridge to the host */
  b: TestBridge
  /** closes the bridge, shuts the host down and removes the directory */
  stop(): Promise<void>
}

export async function openTestHost(opts: TestHostOptions): Promise<TestHost> {
  const {
    prefix,
    hostKind = 'electron',
    mcpServers,
    beforeOpen,
    bridge = true,
    env,
    ...rest
  } = opts
  const dir = mkdtempSync(join(tmpdir(), prefix))
  beforeOpen?.(dir)
  let mcpConfigFile: string | undefined
  if (mcpServers) {
    mcpConfigFile = join(dir, 'mcp.json')
    writeFileSync(mcpConfigFile, JSON.stringify({ mcpServers }))
  }
  const host = await createAppHost({
    dataDir: join(dir, 'data'),
    hostKind,
    version: 't',
    ...(mcpConfigFile ? { mcpConfigFile } : {}),
    env: { ...NO_LOCAL_SERVERS, ...env },
    ...rest,
  })
  const b = bridge ? ipcBridge(host) : null
  return {
    dir,
    host,
    get b(): TestBridge {
      if (!b) throw new Error('opened with bridge: false')
      return b
    },
    stop: async () => {
      await b?.close()
      await host.shutdown()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

type ProviderInput = NonNullable<RouteInput<'settings.update'>['providers']>[number]

export interface ChatHostOptions extends Omit<TestHostOptions, 'beforeOpen'> {
  /** the scripted server's models; the first is the model unless `provider` says otherwise */
  models: string[]
  /**
   * the scripted server as the active provider `p` (set through `settings.update`) instead
   * of `CAIRN_BASE_URL` and `CAIRN_MODEL`
   */
  provider?: Omit<ProviderInput, 'id' | 'baseURL'>
  /** runs before the host opens, once the scripted server runs */
  beforeOpen?: (dir: string, server: ScriptedServer) => void
}

export interface ChatHost extends TestHost {
  server: ScriptedServer
  /** also closes the scripted server */
  stop(): Promise<void>
}

/** A host whose model is the scripted server. */
export async function openChatHost(opts: ChatHostOptions): Promise<ChatHost> {
  const { models, provider, env, beforeOpen, ...rest } = opts
  const server = await startScriptedServer({ models })
  const modelEnv = provider ? {} : { CAIRN_BASE_URL: server.baseURL, CAIRN_MODEL: models[0] }
  const t = await openTestHost({
    ...rest,
    env: { ...modelEnv, ...env },
    beforeOpen: (dir) => beforeOpen?.(dir, server),
  })
  if (provider) {
    unwrap(
      await t.b.request('settings.update', {
        providers: [{ id: 'p', baseURL: server.baseURL, ...provider }],
        activeProviderId: 'p',
      }),
    )
  }
  return {
    dir: t.dir,
    host: t.host,
    get b() {
      return t.b
    },
    server,
    stop: async () => {
      await t.stop()
      await server.close()
    },
  }
}

/**
 * A session stored by an earlier run, before the host opens: nine questions, each answered
 * at some length (enough to compact). Returns its id.
 */
export function storeLongSession(dataDir: string, provider: string, model: string): string {
  const store = createSessionStore(dataDir)
  const s = store.createSession({ provider, model })
  for (let i = 0; i < 9; i++) {
    store.appendMessage(s.id, { role: 'user', content: `question ${i}` })
    store.appendMessage(s.id, { role: 'assistant', content: `answer ${i} ${'a'.repeat(400)}` })
  }
  store.close()
  return s.id
}
