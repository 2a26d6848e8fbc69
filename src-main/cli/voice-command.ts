/**
 * `cairn --voice`: a headless voice session. It listens with the speech-to-text MCP server
 * and sends each sentence as a message (in `--session`, else a new session), one after
 * another, until Ctrl-C or SIGTERM (the running turn is stopped, the server's session
 * closed) or until voice input ends by itself (the server died: exit code 1).
 */
import type { AppServices } from '../services/host/app-services'
import { stopOnSignals } from '../services/host/signals'
import type { ToolRuntime } from '../core/service-ports'
import type { CliOptions } from './args'
import { openChat, type ChatStreams } from './repl/chat-session'
import { StatusLine } from './repl/status-line'
import { ChatVoice } from './repl/voice'
import { stripControls, unguarded } from './terminal-text'

export async function voiceCommand(
  app: AppServices,
  tools: ToolRuntime,
  options: CliOptions,
  streams: ChatStreams,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const chat = openChat(app, tools, options, streams, env)
  if (!chat) return 2
  const heard = new StatusLine(unguarded(streams.stderr))
  let code: number | null = null
  let finish!: () => void
  const finished = new Promise<void>((r) => (finish = r))
  const end = (c: number): void => {
    code ??= c
    finish()
  }
  const voice = new ChatVoice(
    app,
    tools,
    chat,
    streams,
    {
      partial: (text) => heard.show(chat.busy ? '' : text),
      sending: () => heard.clear(),
      ended: () => end(1),
    },
    true,
  )
  const { release } = stopOnSignals(
    (c) => {
      heard.clear()
      streams.stderr.write(`\n${c === 130 ? 'Interrupted' : 'Terminated'}: voice input stops…\n`)
      chat.interrupt()
      end(c)
    },
    // voice input that ended by itself is stopping too
    { stopping: () => code !== null, atOnce: () => streams.stderr.write('Stopping at once.\n') },
  )
  try {
    let source: string | null
    try {
      source = (await voice.start(undefined)).server
    } catch (e) {
      streams.stderr.write(`${stripControls((e as Error).message)}\n`)
      return 1
    }
    if (code === null) {
      streams.stderr.write(
        `Listening with ${stripControls(source ?? '')}: each sentence you say is sent. Ctrl-C ends.\n`,
      )
    }
    await finished
    return code ?? 0
  } finally {
    heard.clear()
    // the server's session is closed, then the running turn ends cleanly
    await voice.shutdown()
    await chat.whenIdle()
    release()
  }
}
