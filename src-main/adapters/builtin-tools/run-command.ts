/**
 * run_command: one shell command, with the workspace as the current folder, stdin closed,
 * in its own process group (see spawn-group.ts), and an environment without the app's
 * secrets: the model must never read the user's API keys through a tool.
 */
import { optionalInt, stringArg, text, ToolError, type BuiltinTool } from './tool-def'
import { runInProcessGroup, type RunResult } from './spawn-group'
import { openWorkspace } from './workspace'

/** the longest timeout the model may ask for (or the configured default, if longer) */
export const MAX_COMMAND_TIMEOUT_MS = 600_000

/** Variable names that look like secrets; they never reach a command. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i
const SECRET_NAMES = new Set(['CAIRN_API_KEY', 'OPENAI_API_KEY'])

/** The app's environment minus anything that looks like a secret, plus non-interactive defaults. */
export function commandEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue
    if (SECRET_NAME.test(name) || SECRET_NAMES.has(name.toUpperCase())) continue
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
    'Long output keeps its beginning and end. Environment variables that hold secrets ' +
    '(API keys, tokens, passwords) are not passed on.',
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
      env: commandEnv(env.env),
      shell: env.shell,
      timeoutMs,
      signal: env.ctx.signal,
      maxOutputChars: env.limits.commandOutputChars,
    })
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
  return { status: `exit code ${r.exitCode ?? 'unknown'}`, ok: r.exitCode === 0 }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
