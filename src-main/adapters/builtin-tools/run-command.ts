/**
 * run_command: one shell command, with the workspace as the current folder, stdin closed,
 * in its own process group (see spawn-group.ts), and an environment built from an
 * allow-list: the model must never read the user's API keys, tokens or sockets through a
 * tool. A name is passed on only if it is in BASE_ENV_NAMES or the user added it in the
 * settings (`toolAccess.commandEnv`).
 */
import { constants as osConstants } from 'node:os'
import { optionalInt, stringArg, text, ToolError, type BuiltinTool } from './tool-def'
import { runInProcessGroup, type RunResult } from './spawn-group'
import { openWorkspace } from './workspace'

/** the longest timeout the model may ask for (or the configured default, if longer) */
export const MAX_COMMAND_TIMEOUT_MS = 600_000

/** What every command gets from the app's environment (when set). */
export const BASE_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  'TZ',
]
/** What Windows programs need to start at all (names there ignore case). */
const WINDOWS_ENV_NAMES: readonly string[] = [
  'SystemRoot',
  'windir',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
]

/**
 * The allowed part of the app's environment (BASE_ENV_NAMES, the names the user added),
 * plus non-interactive defaults.
 */
export function commandEnv(
  base: NodeJS.ProcessEnv,
  extraNames: readonly string[] = [],
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv {
  const windows = platform === 'win32'
  const fold = (n: string): string => (windows ? n.toUpperCase() : n)
  const allowed = new Set(
    [...BASE_ENV_NAMES, ...(windows ? WINDOWS_ENV_NAMES : []), ...extraNames].map(fold),
  )
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || !allowed.has(fold(name))) continue
    out[name] = value
  }
  // no pager or prompt can wait for input that never comes (stdin is closed)
  out['PAGER'] = 'cat'
  out['GIT_PAGER'] = 'cat'
  out['GIT_TERMINAL_PROMPT'] = '0'
  return out
}

export const runCommandTool: BuiltinTool = {
  name: 'run_command',
  description:
    'Run a shell command with the workspace folder as the current folder and return its ' +
    'output (stdout and stderr together) and exit code. There is no input (stdin is closed), ' +
    'so use non-interactive flags. The command and everything it starts are stopped when it ' +
    'times out (default 120 s; set timeoutMs for longer work) or when the user cancels. ' +
    'Long output keeps its beginning and end. Only a few environment variables are passed ' +
    'on (PATH, HOME, LANG, TERM, USER, SHELL, TMPDIR and those the user allowed): no API keys ' +
    'or tokens. Background processes (&, nohup, setsid) are stopped when the command ends, so ' +
    'start a server and use it within one command.',
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The shell command line to run' },
      timeoutMs: {
        type: 'integer',
        minimum: 1000,
        maximum: MAX_COMMAND_TIMEOUT_MS,
        description: 'Stop the command after this many milliseconds (default 120000)',
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Run command',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, env) {
    const command = stringArg(args, 'command')
    if (command.trim() === '') throw new ToolError('The command is empty.')
    const cap = Math.max(MAX_COMMAND_TIMEOUT_MS, env.limits.commandTimeoutMs)
    const timeoutMs = optionalInt(args, 'timeoutMs', 1, cap) ?? env.limits.commandTimeoutMs
    const ws = await openWorkspace(env.workspace)
    const result = await runInProcessGroup({
      command,
      cwd: ws.root,
      env: commandEnv(env.env, env.commandEnvNames),
      shell: env.shell,
      timeoutMs,
      signal: env.ctx.signal,
      maxOutputChars: env.limits.commandOutputChars,
      ...(env.processRegistry ? { registry: env.processRegistry } : {}),
      ...(env.containment ? { containment: env.containment } : {}),
    })
    env.onContainment?.({ kind: result.containment, description: result.containmentNote })
    if (result.spawnError) {
      throw new ToolError(`The shell could not be started: ${result.spawnError.message}`)
    }
    const { status, ok } = describeEnd(result, timeoutMs)
    const body = result.output === '' ? '(no output)' : result.output.replace(/\n$/, '')
    return text(`${body}\n[${status}]`, !ok)
  },
}

function describeEnd(r: RunResult, timeoutMs: number): { status: string; ok: boolean } {
  if (r.stopped === 'timeout') {
    return {
      status: `timed out after ${formatMs(timeoutMs)}; the command and the processes it started were stopped. Run it with a larger timeoutMs, or make it do less`,
      ok: false,
    }
  }
  if (r.stopped === 'abort') {
    return { status: 'cancelled; the command and the processes it started were stopped', ok: false }
  }
  if (r.exitSignal) return { status: `killed by ${r.exitSignal}`, ok: false }
  // under a PID namespace the shell's end comes through its init, as a shell reports it: 128 + N
  const signal = r.containment === 'pid-namespace' ? signalName((r.exitCode ?? 0) - 128) : null
  if (signal) return { status: `exit code ${r.exitCode} (128 + ${signal})`, ok: false }
  return { status: `exit code ${r.exitCode ?? 'unknown'}`, ok: r.exitCode === 0 }
}

function signalName(n: number): string | null {
  if (n <= 0) return null
  const found = Object.entries(osConstants.signals).find(([, v]) => v === n)
  return found ? found[0] : null
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
