/**
 * The client side of the OAuth tests: cleanups run after each test, a "browser" whose user
 * agrees, the temporary directory for the client's secrets, and an `McpConnection` to the
 * scripted authorization server (`oauth-server.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { HttpServerConfig } from '../../src-main/core/mcp-ports'
import { McpConnection } from '../../src-main/adapters/mcp/connection'
import type { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'

export type Cleanup = () => Promise<void> | void

/** Registers an `afterEach` that runs the cleanups added during the test, the last added first. */
export function useCleanups(): (...fns: Cleanup[]) => void {
  const cleanups: Cleanup[] = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })
  return (...fns) => void cleanups.push(...fns)
}

/** Opens the authorization page and follows its redirect back, as a browser whose user agrees. */
export async function follow(u: URL | string): Promise<void> {
  const page = await fetch(u, { redirect: 'manual' })
  const back = page.headers.get('location')
  if (!back) throw new Error(`the authorization page answered ${page.status}`)
  await (await fetch(back)).text()
}

/** A temporary directory, removed by the cleanup. */
export function tempDir(prefix: string, cleanup: (...fns: Cleanup[]) => void): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanup(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A started connection to the server at `url` with the given token store, stopped by the cleanup. */
export async function connectWithOAuth(
  url: string,
  oauthStore: McpAuthStore,
  cleanup: (...fns: Cleanup[]) => void,
): Promise<McpConnection> {
  const c = new McpConnection('remote', { url } satisfies HttpServerConfig, {
    launchStdio: () => Promise.reject(new Error('no stdio here')),
    clientVersion: 'test',
    oauthStore,
    restartBaseMs: 10,
  })
  cleanup(() => c.stop())
  await c.start()
  return c
}
