/**
 * What `cairn chat` keeps between lines (the session it talks in, the model chosen with
 * `/model`) and what each line does. Every message runs through `runCliTurn`, the code the
 * one-shot `cairn "prompt"` uses. Lines and spoken sentences are handled one at a time, in
 * the order they came; `interrupt()` stops the one running (a turn ends cleanly, every tool
 * call answered).
 */
import type { AttachmentPart, ContentPart } from '../../../src-preload/contract/dto'
import { describeAttachment } from '../../core/attachments/describe'
import { attachedLine, attachFile, checkParts } from '../attach-files'
import { AbortReason } from '../../core/llm/types'
import type { AppServices } from '../../services/host/app-services'
import type { ToolRuntime } from '../../core/service-ports'
import { UsageError, type CliOptions } from '../args'
import { findAssistant } from '../assistants'
import { mentionMessage, MessageError, parsePromptArgs } from '../message-parts'
import type { Streams } from '../output'
import { serverPromptMessage } from '../prompt-args'
import { runCliTurn } from '../run-turn'
import { resolveSessionId } from '../session-id'
import { stripControls } from '../terminal-text'
import { CHAT_HELP, type ChatCommand } from './commands'
import { listPrompts, listResources } from './resource-prompt-lists'

export type ChatStreams = Streams & { stdin: NodeJS.ReadStream }

export class ChatSession {
  sessionId: string | undefined
  model: string | undefined
  /** the assistant (an id) chosen with `/assistant`, sent with every message from then on */
  assistantId: string | undefined
  /** the exit code of the last message that did not complete (0: none) */
  lastFailure = 0
  /** `/voice …` (set by the host that offers voice) */
  voiceCommand: ((action: string | undefined, source: string | undefined) => Promise<void>) | null =
    null
  /** told when the user stops what runs (voice drops the sentences waiting) */
  onInterrupt: (() => void) | null = null
  private running: AbortController | null = null
  /** the files of `/attach`, sent with the next message */
  private files: AttachmentPart[] = []
  private chain: Promise<void> = Promise.resolve()
  private pending = 0
  private readonly idleWaiters: (() => void)[] = []

  constructor(
    private readonly app: AppServices,
    private readonly tools: ToolRuntime,
    private readonly options: CliOptions,
    private readonly streams: ChatStreams,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.sessionId = options.session
    this.model = options.model
  }

  /** whether something (a line, a spoken sentence) is being handled or waits its turn */
  get busy(): boolean {
    return this.pending > 0
  }

  /** resolves once nothing is handled or waiting */
  whenIdle(): Promise<void> {
    return this.pending === 0 ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r))
  }

  /** stops what runs; false when nothing did */
  interrupt(): boolean {
    if (!this.running || this.running.signal.aborted) return false
    this.running.abort(new AbortReason('stop'))
    this.onInterrupt?.()
    return true
  }

  /** runs `work` after everything handed in before it */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    this.pending++
    const run = this.chain.then(work)
    this.chain = run.then(
      () => this.settle(),
      () => this.settle(),
    )
    return run
  }

  private settle(): void {
    if (--this.pending === 0) for (const w of this.idleWaiters.splice(0)) w()
  }

  private say(line: string): void {
    this.streams.stderr.write(`${line}\n`)
  }

  /** Handles one command (after those before it); resolves 'quit' when the user leaves. */
  handle(cmd: ChatCommand): Promise<'quit' | void> {
    return this.serial(() => this.handleNow(cmd))
  }

  /** Sends a spoken sentence as a message, after what was handed in before it. */
  spoken(
    text: string,
    onStart: (info: { sessionId: string; turnId: string }) => void,
  ): Promise<void> {
    // said at once: a sentence is handed over only when nothing runs
    this.say(`voice> ${stripControls(text)}`)
    return this.serial(() =>
      this.guarded(async (signal) => void (await this.turn({ text }, signal, onStart))),
    )
  }

  private async handleNow(cmd: ChatCommand): Promise<'quit' | void> {
    switch (cmd.kind) {
      case 'empty':
        // files attached: Enter sends them alone
        return this.files.length > 0 ? this.send('') : undefined
      case 'attach':
        return this.attach(cmd.path)
      case 'quit':
        return 'quit'
      case 'help':
        return this.say(CHAT_HELP)
      case 'new':
        this.sessionId = undefined
        return this.say('A new session starts with your next message.')
      case 'model':
        return this.switchModel(cmd.name)
      case 'session':
        return this.switchSession(cmd.id)
      case 'assistant':
        return this.switchAssistant(cmd.name)
      case 'resources':
        return this.guarded((signal) => listResources(this.tools, this.streams, signal))
      case 'prompts':
        return this.guarded((signal) => listPrompts(this.tools, this.streams, signal))
      case 'unknown':
        return this.say(`There is no command /${stripControls(cmd.name)}. /help lists them.`)
      case 'voice':
        if (!this.voiceCommand) return this.say('Voice input is not available here.')
        return this.voiceCommand(cmd.action, cmd.source)
      case 'prompt':
        return this.guarded(async (signal) => {
          const args = parsePromptArgs(cmd.args)
          const message = await serverPromptMessage(
            this.tools,
            cmd.server,
            cmd.name,
            args,
            this.streams,
            signal,
          )
          await this.turn(message, signal)
        })
      case 'message':
        return this.send(cmd.text)
    }
  }

  /**
   * Sends a message (its `@server:uri` resources and the files of `/attach` attached) as a
   * turn. The files stay for the next message when nothing was sent (a refusal).
   */
  private send(line: string): Promise<void> {
    return this.guarded(async (signal) => {
      const message = line === '' ? { text: '', parts: [] } : await mentionMessage(this.tools, line)
      const parts = [...message.parts, ...this.files]
      checkParts(this.app, parts)
      if (await this.turn({ text: message.text, parts }, signal)) this.files = []
    })
  }

  /** `/attach <path>`: the file is read now and goes with the next message; alone: the list */
  private attach(file: string | undefined): Promise<void> | void {
    if (!file) {
      if (this.files.length === 0)
        return this.say('No files are attached. /attach <path> adds one.')
      return this.say(
        `With your next message: ${this.files.map((f) => stripControls(describeAttachment(f))).join('; ')}`,
      )
    }
    return this.guarded(async () => {
      const part = await attachFile(this.app, file.replace(/^["']|["']$/g, ''))
      checkParts(this.app, [...this.files, part])
      this.files.push(part)
      this.say(`${stripControls(attachedLine(part))}: it goes with your next message.`)
    })
  }

  /** runs `work` as the one thing running; a problem with the message is said, not thrown */
  private async guarded(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const running = new AbortController()
    this.running = running
    try {
      await work(running.signal)
    } catch (e) {
      if (e instanceof MessageError || e instanceof UsageError) {
        this.lastFailure = 1
        return this.say(stripControls(e.message))
      }
      if (running.signal.aborted) return this.say('Stopped.')
      throw e
    } finally {
      this.running = null
    }
  }

  /** runs one turn; true when it started (its message was sent) */
  private async turn(
    message: { text: string; parts?: ContentPart[] },
    signal: AbortSignal,
    onStart?: (info: { sessionId: string; turnId: string }) => void,
  ): Promise<boolean> {
    if (signal.aborted) {
      this.say('Stopped.')
      return false
    }
    const { code, sessionId } = await runCliTurn(
      this.app,
      this.tools,
      {
        ...message,
        ...(this.sessionId ? { sessionId: this.sessionId } : {}),
        ...(this.model ? { model: this.model } : {}),
        ...(this.assistantId ? { assistantId: this.assistantId } : {}),
      },
      this.options,
      this.streams,
      this.env,
      {
        signal,
        onInterrupt: () => this.interruptWithNote(),
        ...(onStart ? { onStart } : {}),
      },
    )
    if (sessionId) this.sessionId = sessionId
    if (code !== 0) this.lastFailure = code
    return sessionId !== undefined
  }

  /** Ctrl-C: stops what runs and says so; false when nothing did */
  interruptWithNote(): boolean {
    if (!this.interrupt()) return false
    this.say('\nStopping the answer…')
    return true
  }

  private switchModel(name: string | undefined): void {
    if (name) {
      this.model = name
      return this.say(`From your next message on, the model is ${stripControls(name)}.`)
    }
    const stored = this.sessionId ? this.app.store.getSession(this.sessionId)?.model : undefined
    const model = this.model ?? stored
    this.say(
      model
        ? `The model is ${stripControls(model)}.`
        : 'The model is the configured one (--model, CAIRN_MODEL or the settings).',
    )
  }

  private switchAssistant(given: string | undefined): void {
    if (given) {
      const found = findAssistant(this.app, given)
      if (!found) {
        return this.say(
          `There is no assistant "${stripControls(given)}". \`cairn assistants list\` shows them.`,
        )
      }
      this.assistantId = found.id
      return this.say(`From your next message on, the assistant is ${stripControls(found.name)}.`)
    }
    const chosen = this.assistantId ?? this.options.assistant
    const assistant = chosen
      ? this.app.assistants.get(chosen)
      : this.sessionId
        ? this.app.assistants.forSession(this.sessionId).assistant
        : this.app.assistants.defaultAssistant()
    this.say(
      assistant
        ? `The assistant is ${stripControls(assistant.name)}.`
        : 'The assistant is the default one.',
    )
  }

  private switchSession(given: string | undefined): void {
    if (!given) {
      const current = this.sessionId ? this.app.store.getSession(this.sessionId) : null
      return this.say(
        current
          ? `Session ${current.id}${current.title ? ` · ${stripControls(current.title)}` : ''}`
          : 'No session yet: your next message starts one.',
      )
    }
    let id: string
    try {
      id = resolveSessionId(this.app, given)
    } catch (e) {
      return this.say(stripControls((e as Error).message))
    }
    const found = this.app.store.getSession(id)
    if (!found) {
      return this.say(
        `There is no session "${stripControls(given)}". \`cairn sessions list\` shows them.`,
      )
    }
    this.sessionId = found.id
    this.say(
      `Continuing session ${found.id}${found.title ? ` · ${stripControls(found.title)}` : ''}`,
    )
  }
}

/** a chat in `--session` (else a new session), or null, said on stderr, when there is no such session */
export function openChat(
  app: AppServices,
  tools: ToolRuntime,
  options: CliOptions,
  streams: ChatStreams,
  env: NodeJS.ProcessEnv,
): ChatSession | null {
  if (!options.session || app.store.getSession(options.session))
    return new ChatSession(app, tools, options, streams, env)
  streams.stderr.write(
    `There is no session "${stripControls(options.session)}". \`cairn sessions list\` shows the sessions.\n`,
  )
  return null
}
