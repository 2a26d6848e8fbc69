/** What Cairn's stdio transport is given, and how it words a process that ended or never started. */
import type { ProcessRegistry } from './process-registry'

export interface GroupStdioOptions {
  /** an absolute path (already resolved) or a name found on env.PATH */
  command: string
  args: string[]
  /** the COMPLETE environment of the server (see minimalEnv) */
  env: Record<string, string>
  cwd?: string
  /** default 65536: the last bytes of stderr kept for the status */
  stderrTailBytes?: number
  onStderr?: (text: string) => void
  /** records the group while it runs */
  registry?: ProcessRegistry
  /** after closing stdin, wait this long before SIGTERM (default 2000), then the same before SIGKILL */
  closeGraceMs?: number
  /** the server's name for the registry (default: the command's basename) */
  serverName?: string
  /** called with each stdout line that is not JSON-RPC (cut to 500 characters) */
  onStdoutNoise?: (line: string) => void
  /** a stdout line longer than this is dropped as noise (default 10 MB, like the SDK) */
  maxLineBytes?: number
}

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null }

export function describeExit(exit: ProcessExit): string {
  if (exit.signal) return `was killed by ${exit.signal}`
  return `exited with code ${exit.code ?? 'unknown'}`
}

/** why a server's process could not be started, in words (`code`: the system's error code) */
export function spawnFailure(command: string, err: NodeJS.ErrnoException): Error {
  const why =
    err.code === 'ENOENT'
      ? `the command "${command}" was not found`
      : err.code === 'EACCES'
        ? `the command "${command}" is not executable (permission denied)`
        : `spawning "${command}" failed: ${err.message}`
  const error = new Error(`Cannot start the MCP server: ${why}`, { cause: err })
  return Object.assign(error, { code: err.code })
}
