/** Helpers for MCP tests: real servers from node_modules and the fixtures in tests/fixtures/mcp. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import type { StdioServerConfig } from '../../src-main/core/mcp-ports'

export const EVERYTHING = join(
  process.cwd(),
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
)
export const FILESYSTEM = join(
  process.cwd(),
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
)

export function fixture(name: string): string {
  return join(process.cwd(), 'tests', 'fixtures', 'mcp', name)
}

export function nodeServer(
  script: string,
  args: string[] = [],
  env?: Record<string, string>,
): StdioServerConfig {
  return { command: process.execPath, args: [script, ...args], ...(env ? { env } : {}) }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      srv.close(() =>
        addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port')),
      )
    })
  })
}

/** Starts server-everything over HTTP (streamableHttp or sse) on a free port; waits until it listens. */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not start`)),
      15_000,
    )
    child.stderr!.on('data', (d: Buffer) => {
      if (/listening|running/i.test(d.toString())) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export async function waitFor(
  check: () => boolean,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

export function byName(list: McpServerInfo[], name: string): McpServerInfo {
  const s = list.find((x) => x.name === name)
  if (!s) throw new Error(`no server ${name}`)
  return s
}
