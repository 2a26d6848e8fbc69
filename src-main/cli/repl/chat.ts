/**
 * `cairn chat`: a conversation on the terminal. Each line is a message (or a command, see
 * `commands.ts`) sent as a turn in the current session. On a terminal: a prompt with line
 * editing and history; Ctrl-C stops a running answer, Ctrl-D leaves. Without one (stdin or
 * stderr not a terminal): each line of stdin is handled in turn, in order, until its end;
 * SIGINT or SIGTERM stops the running turn and leaves.
 *
 * Exit code: 0 when every message completed, else the code of the last that did not (as the
 * one-shot command gives it); 130 or 143 when a signal ended it.
 *
 * `/voice start` listens (see `voice.ts`): each sentence is sent like a typed line, after
 * what runs; what is being heard shows in front of the prompt (a line of its own without
 * a terminal). Leaving stops voice input first.
 */
import { createInterface } from 'node:readline'
import type { AppServices } from '../../services/host/app-services'
import { handleStopSignals, stopOnSignals } from '../../services/host/signals'
import type { ToolRuntime } from '../../core/service-ports'
import type { CliOptions } from '../args'
import { stripControls, unguarded } from '../terminal-text'
import { openChat, type ChatSession, type ChatStreams } from './chat-session'
import { parseChatLine } from './commands'
import { PromptLine } from './prompt-line'
import { StatusLine } from './status-line'
import { ChatVoice } from './voice'

export async function chatCommand(
  app: AppServices,
  tools: ToolRuntime,
  options: CliOptions,
  streams: ChatStreams,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const chat = openChat(app, tools, options, streams, env)
  if (!chat) return 2
  const terminal = streams.stdin.isTTY === true && unguarded(streams.stderr).isTTY === true
  const prompt = terminal ? new PromptLine(streams.stdin, unguarded(streams.stderr)) : null
  const heard = prompt ? null : new StatusLine(streams.stderr)
  const voice = new ChatVoice(app, tools, chat, streams, {
    // on a terminal, what is heard shows in front of the prompt while it waits
    partial: (text) =>
      prompt ? prompt.setStatus(text && !chat.busy ? `hearing: ${text}` : '') : heard!.show(text),
    composed: (text) => prompt?.insert(text),
    // a sentence to send: the prompt gives the terminal up to its turn
    sending: () => prompt?.wake(),
    notice: (line) =>
      prompt ? prompt.above(`${stripControls(line)}\n`) : streams.stderr.write(`${line}\n`),
  })
  chat.voiceCommand = (action, source) => voice.command(action, source)
  // `cairn chat --voice` listens from the start
  if (options.voice) void chat.handle({ kind: 'voice', action: 'start' })
  try {
    return prompt ? await onTerminal(chat, prompt, streams) : await fromLines(chat, streams)
  } finally {
    // Ctrl-D, /quit, the end of stdin: voice stops first (the server's session is closed)
    await voice.shutdown()
    await chat.whenIdle()
  }
}

async function onTerminal(
  chat: ChatSession,
  prompt: PromptLine,
  streams: ChatStreams,
): Promise<number> {
  let terminated = false
  // between prompts no readline holds the terminal, so Ctrl-C comes as SIGINT
  const release = handleStopSignals({
    SIGINT: () => {
      if (!chat.busy) return
      if (chat.interruptWithNote()) return
      streams.stderr.write('Stopping at once.\n')
      process.exit(130)
    },
    SIGTERM: () => {
      terminated = true
      chat.interrupt()
      prompt.wake()
    },
  })
  streams.stderr.write(
    `Cairn chat. /help lists the commands; Ctrl-C stops an answer, Ctrl-D leaves.\n${
      chat.sessionId ? `Continuing session ${chat.sessionId}.\n` : ''
    }`,
  )
  try {
    for (;;) {
      if (terminated) return 143
      // a spoken sentence's turn runs without the prompt
      await chat.whenIdle()
      if (terminated) return 143
      const input = await prompt.read()
      if (terminated) return 143
      if (input.kind === 'eof') return 0
      if (input.kind === 'wake') continue
      if ((await chat.handle(parseChatLine(input.text))) === 'quit') return 0
    }
  } finally {
    release()
  }
}

async function fromLines(chat: ChatSession, streams: ChatStreams): Promise<number> {
  const lines = createInterface({ input: streams.stdin, terminal: false, crlfDelay: Infinity })
  let signalCode: number | null = null
  const { release } = stopOnSignals((code) => {
    signalCode = code
    chat.interrupt()
    lines.close()
  })
  try {
    for await (const line of lines) {
      if (signalCode !== null) break
      if ((await chat.handle(parseChatLine(line))) === 'quit') break
    }
    return signalCode ?? chat.lastFailure
  } finally {
    lines.close()
    release()
  }
}
