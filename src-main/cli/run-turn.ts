import type { PermissionPolicy } from '../../src-preload/contract/dto'
import type { TurnEndReason } from '../../src-preload/contract/events'
import { AbortReason } from '../core/llm/types'
import type { AppServices } from '../services/app-services'
import type { ToolRuntime } from '../services/tool-runtime'
import { handleStopSignals } from '../services/signals'
import { runSessionTurn, SetupError } from '../services/turn-service'
import { terminalApprover } from './approver'
import { terminalElicitor } from './elicitor'
import type { ApproveMode, CliOptions } from './args'
import { jsonRenderer, TextRenderer, type Streams } from './output'
import { unguarded } from './terminal-text'

const POLICY: Record<ApproveMode, PermissionPolicy> = {
  ask: 'ask',
  all: 'allow-all',
  none: 'deny-all',
  'read-only': 'read-only',
}

export function exitCodeFor(reason: TurnEndReason): number {
  switch (reason) {
    case 'completed':
      return 0
    case 'aborted':
      return 130
    case 'error':
      return 1
    default:
      return 3 // a limit, a loop or a stop policy
  }
}

/** One turn from the command line. Returns the exit code. */
export async function runTurnCommand(
  app: AppServices,
  tools: ToolRuntime,
  prompt: string,
  options: CliOptions,
  streams: Streams & { stdin: NodeJS.ReadStream },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const stopper = new AbortController()
  let signalCode: number | null = null
  const onSignal = (code: number) => (): void => {
    if (signalCode !== null) {
      streams.stderr.write('Stopping at once.\n')
      process.exit(code)
    }
    signalCode = code
    streams.stderr.write(
      `\n${code === 130 ? 'Interrupted' : 'Terminated'}: stopping the turn (press Ctrl-C again to quit at once)…\n`,
    )
    stopper.abort(new AbortReason('stop'))
  }
  const onInt = onSignal(130)
  const onTerm = onSignal(143)
  const releaseSignals = handleStopSignals({ SIGINT: onInt, SIGTERM: onTerm })

  const render = options.json
    ? jsonRenderer(streams)
    : new TextRenderer(streams, { raw: options.raw }).handle
  try {
    const run = await runSessionTurn(app, {
      ...(options.session ? { sessionId: options.session } : {}),
      text: prompt,
      flags: {
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        ...(options.model ? { model: options.model } : {}),
      },
      env,
      ...(options.approve ? { policy: POLICY[options.approve] } : {}),
      limits: {
        ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}),
        ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
      },
      ...(options.workspace ? { workspace: options.workspace } : {}),
      ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
      ...(options.think !== undefined ? { thinking: options.think } : {}),
      tools: (session) => tools.hostFor(session),
      // readline needs the terminal itself; the approver strips what it shows
      approver: terminalApprover(streams.stdin, unguarded(streams.stderr), onInt),
      elicitor: terminalElicitor(streams.stdin, unguarded(streams.stderr), onInt, options.approve),
      emit: render,
      signal: stopper.signal,
      onStart: ({ session, model, provider }) => {
        if (!options.json) {
          streams.stderr.write(
            `${session.title ? `Session ${session.id}` : `New session ${session.id}`} · ${model} at ${provider.label}\n`,
          )
        }
      },
    })
    // a generated title (settings) is saved before the command exits
    await run.titled
    return signalCode ?? exitCodeFor(run.outcome.reason)
  } catch (e) {
    if (e instanceof SetupError) {
      streams.stderr.write(`${e.message}\n`)
      return e.code === 'no_session' ? 2 : 1
    }
    throw e
  } finally {
    releaseSignals()
  }
}
