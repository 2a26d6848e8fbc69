import type { ContentPart, PermissionPolicy } from '../../src-preload/contract/dto'
import type { TurnEndReason } from '../../src-preload/contract/events'
import { AbortReason } from '../core/llm/types'
import type { AppServices } from '../services/host/app-services'
import type { ToolRuntime } from '../core/service-ports'
import { stopOnSignals } from '../services/host/signals'
import { SetupError } from '../services/turns/turn-plan'
import { AttachmentRefused, ModelCannotSee } from '../core/attachments/refusal'
import { attachedLine, attachFiles } from './attach-files'
import { messageRef, type BranchChoice } from '../services/turns/branch-start'
import { runSessionTurn } from '../services/turns/turn-service'
import { terminalApprover } from './approver'
import { terminalElicitor } from './elicitor'
import { UsageError, type ApproveMode, type CliOptions } from './args'
import { exitStatusOf } from './exit-status'
import { mentionMessage, MessageError, parsePromptArgs, parsePromptName } from './message-parts'
import { serverPromptMessage } from './prompt-args'
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

/** What one turn sends: the text, what it carries, where it goes. */
export interface CliMessage {
  text: string
  parts?: ContentPart[]
  /** the session to continue (none: a new one) */
  sessionId?: string
  /** the model from now on (none: the session's own, or the configured one) */
  model?: string
  /** the assistant (an id) from now on (none: --assistant, else the session's own) */
  assistantId?: string
  /** --from: where in the session the message goes (a new branch after that message) */
  branch?: BranchChoice
}

export interface CliTurnControl {
  /** stops the turn (it ends cleanly: every tool call answered) */
  signal: AbortSignal
  /** Ctrl-C while a question (approval, a server's form) is on the terminal */
  onInterrupt: () => void
  /** the turn has started in that session (not called when it could not start) */
  onStart?: (info: { sessionId: string; turnId: string }) => void
}

/**
 * Runs one turn with the command line's output, approvals and questions; the one-shot
 * command and `cairn chat` both come here. Returns the exit code it stands for and the
 * session it ran in (none when nothing was kept).
 */
export async function runCliTurn(
  app: AppServices,
  tools: ToolRuntime,
  message: CliMessage,
  options: CliOptions,
  streams: Streams & { stdin: NodeJS.ReadStream },
  env: NodeJS.ProcessEnv,
  control: CliTurnControl,
): Promise<{ code: number; sessionId?: string }> {
  const render = options.json
    ? jsonRenderer(streams)
    : new TextRenderer(streams, { raw: options.raw }).handle
  try {
    const run = await runSessionTurn(app, {
      ...(message.sessionId ? { sessionId: message.sessionId } : {}),
      text: message.text,
      ...(message.parts && message.parts.length > 0 ? { parts: message.parts } : {}),
      ...(message.branch ? { branch: message.branch } : {}),
      flags: {
        ...(options.assistantFields.provider ? { provider: options.assistantFields.provider } : {}),
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        ...(message.model ? { model: message.model } : {}),
      },
      env,
      ...(options.approve ? { policy: POLICY[options.approve] } : {}),
      limits: {
        ...(options.maxIterations ? { maxIterations: options.maxIterations } : {}),
        ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
      },
      ...(options.workspace ? { workspace: options.workspace } : {}),
      ...((message.assistantId ?? options.assistant)
        ? { assistantId: message.assistantId ?? options.assistant }
        : {}),
      ...(options.project ? { projectId: options.project } : {}),
      ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
      ...(options.think !== undefined ? { thinking: options.think } : {}),
      tools: (session) => tools.hostFor(session),
      // readline needs the terminal itself; the approver strips what it shows
      approver: terminalApprover(streams.stdin, unguarded(streams.stderr), control.onInterrupt),
      elicitor: terminalElicitor(
        streams.stdin,
        unguarded(streams.stderr),
        control.onInterrupt,
        options.approve,
      ),
      emit: render,
      signal: control.signal,
      onStart: ({ session, turnId, model, provider }) => {
        control.onStart?.({ sessionId: session.id, turnId })
        if (!options.json) {
          streams.stderr.write(
            `${session.title ? `Session ${session.id}` : `New session ${session.id}`} · ${model} at ${provider.label}\n`,
          )
        }
      },
    })
    // a generated title (settings) is saved before the command exits
    await run.titled
    return {
      code: exitCodeFor(run.outcome.reason),
      ...(run.discarded ? {} : { sessionId: run.sessionId }),
    }
  } catch (e) {
    if (e instanceof SetupError) {
      streams.stderr.write(`${e.message}\n`)
      return { code: exitStatusOf(e) }
    }
    // a file refused, or images for a model that cannot see: nothing was sent
    if (e instanceof AttachmentRefused || e instanceof ModelCannotSee) {
      streams.stderr.write(`${e.message}\n`)
      return { code: 1 }
    }
    throw e
  }
}

/**
 * The message of a one-shot turn: the prompt with its `@server:uri` resources, or the
 * server's prompt named by `--mcp-prompt` (its arguments from `words`, the missing
 * required ones asked on a terminal).
 */
async function oneShotMessage(
  app: AppServices,
  tools: ToolRuntime,
  prompt: string,
  options: CliOptions,
  words: readonly string[],
  streams: Streams & { stdin: NodeJS.ReadStream },
  signal: AbortSignal,
): Promise<{ text: string; parts: ContentPart[] }> {
  // the files of --attach, read now, after the resources the message names
  const withFiles = async (m: { text: string; parts: ContentPart[] }) => {
    const files = await attachFiles(app, options.attach, m.parts)
    for (const f of files) if (!options.json) streams.stderr.write(`${attachedLine(f)}\n`)
    return { text: m.text, parts: [...m.parts, ...files] }
  }
  if (options.mcpPrompt) {
    const named = parsePromptName(options.mcpPrompt)
    if (!named) throw new UsageError('--mcp-prompt takes <server>:<prompt>')
    let args: Record<string, string>
    try {
      args = parsePromptArgs(words.map((w) => (/\s/.test(w) ? quoteValue(w) : w)).join(' '))
    } catch (e) {
      throw new UsageError((e as Error).message)
    }
    return withFiles(
      await serverPromptMessage(tools, named.server, named.name, args, streams, signal),
    )
  }
  if (prompt === '' && options.attach.length > 0) return withFiles({ text: '', parts: [] })
  return withFiles(await mentionMessage(tools, prompt))
}

/** a `name=value with spaces` word from the shell, as the argument parser reads it */
function quoteValue(word: string): string {
  const at = word.indexOf('=')
  if (at <= 0) return word
  return `${word.slice(0, at)}="${word.slice(at + 1).replace(/["\\]/g, '\\$&')}"`
}

/** One turn from the command line. Returns the exit code. */
export async function runTurnCommand(
  app: AppServices,
  tools: ToolRuntime,
  prompt: string,
  options: CliOptions,
  streams: Streams & { stdin: NodeJS.ReadStream },
  env: NodeJS.ProcessEnv,
  words: readonly string[] = [],
): Promise<number> {
  const stopper = new AbortController()
  let signalCode: number | null = null
  const signals = stopOnSignals(
    (code) => {
      signalCode = code
      streams.stderr.write(
        `\n${code === 130 ? 'Interrupted' : 'Terminated'}: stopping the turn (press Ctrl-C again to quit at once)…\n`,
      )
      stopper.abort(new AbortReason('stop'))
    },
    { atOnce: () => streams.stderr.write('Stopping at once.\n') },
  )
  try {
    let message: { text: string; parts: ContentPart[] }
    try {
      message = await oneShotMessage(app, tools, prompt, options, words, streams, stopper.signal)
    } catch (e) {
      if (!(e instanceof MessageError)) throw e
      streams.stderr.write(`${e.message}\n`)
      return signalCode ?? 1
    }
    const { code } = await runCliTurn(
      app,
      tools,
      {
        ...message,
        ...(options.session ? { sessionId: options.session } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.from ? { branch: { after: messageRef(options.from) } } : {}),
      },
      options,
      streams,
      env,
      { signal: stopper.signal, onInterrupt: signals.interrupt },
    )
    return signalCode ?? code
  } finally {
    signals.release()
  }
}
