/**
 * Starting a stdio server the way a double-clicked app must: the command is looked up on
 * the user's login-shell PATH (plus the app's and the usual tool folders), and the server
 * gets a minimal environment — never the app's secrets.
 */
import { isAbsolute, resolve } from 'node:path'
import type { StdioServerConfig } from '../../core/mcp-ports'
import { LaunchFailure, type StdioLaunch } from './connection'
import { loginShellPath, minimalEnv, resolveCommand, searchDirs } from './command-resolver'
import type { ProcessRegistry } from './process-registry'
import { MAX_MESSAGE_BYTES } from './http-limits'
import { GroupStdioTransport } from './stdio-transport'

export interface LaunchOptions {
  registry?: ProcessRegistry
  /** the app's environment (default: process.env) */
  env?: NodeJS.ProcessEnv
  /** the folder relative `cwd`s are resolved against */
  baseDir?: string
  onStderr?: (server: string, text: string) => void
  /** the entry as it starts: an installed extension's sensitive settings filled in */
  prepare?: (name: string, config: StdioServerConfig) => StdioServerConfig
}

export function stdioLauncher(opts: LaunchOptions = {}) {
  const env = opts.env ?? process.env
  let dirs: Promise<string[]> | null = null
  const searchPath = (): Promise<string[]> =>
    (dirs ??= loginShellPath({ env }).then((shell: string[]) => searchDirs(shell, env['PATH'])))

  return async (name: string, configured: StdioServerConfig): Promise<StdioLaunch> => {
    const config = opts.prepare ? opts.prepare(name, configured) : configured
    const pathDirs = await searchPath()
    const found = resolveCommand(config.command, pathDirs)
    if (!found.ok) throw new LaunchFailure(found.error, pathDirs)
    const transport = new GroupStdioTransport({
      command: found.path,
      args: config.args ?? [],
      env: minimalEnv({ pathDirs, ...(config.env ? { serverEnv: config.env } : {}), base: env }),
      ...(config.cwd
        ? {
            cwd: isAbsolute(config.cwd)
              ? config.cwd
              : resolve(opts.baseDir ?? process.cwd(), config.cwd),
          }
        : {}),
      serverName: name,
      // a large tool result (tens of MB) is received and then cut (see content.ts), not
      // dropped as an over-long line and waited for until the call times out
      maxLineBytes: MAX_MESSAGE_BYTES,
      ...(opts.registry ? { registry: opts.registry } : {}),
      ...(opts.onStderr ? { onStderr: (text: string) => opts.onStderr?.(name, text) } : {}),
    })
    return { transport, resolvedCommand: found.path, searchPath: pathDirs }
  }
}
