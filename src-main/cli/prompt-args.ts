/**
 * The arguments of a server's prompt that the user left out: each required one is asked on
 * the terminal (its description beside it, asked again while empty); without a terminal
 * the missing ones are named and nothing is sent.
 */
import { createInterface } from 'node:readline'
import type { ContentPart } from '../../src-preload/contract/dto'
import type { McpPrompt } from '../../src-preload/contract/resources-and-prompts'
import type { ToolRuntime } from '../core/service-ports'
import { ask } from './approver'
import { findPrompt, MessageError, promptMessage } from './message-parts'
import type { Streams } from './output'
import { stripControls, unguarded } from './terminal-text'

/**
 * The server's prompt `server:name` as the user's message, with `given` arguments and the
 * missing required ones asked on the terminal (`/server:prompt` and `--mcp-prompt`).
 */
export async function serverPromptMessage(
  tools: ToolRuntime,
  server: string,
  name: string,
  given: Record<string, string>,
  streams: Streams & { stdin: NodeJS.ReadStream },
  signal: AbortSignal,
): Promise<{ text: string; parts: ContentPart[] }> {
  const prompt = await findPrompt(tools, server, name)
  const args = await completePromptArgs(
    prompt,
    given,
    streams.stdin,
    unguarded(streams.stderr),
    signal,
  )
  return promptMessage(tools, server, name, args)
}

async function completePromptArgs(
  prompt: McpPrompt,
  given: Record<string, string>,
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const missing = prompt.arguments.filter((a) => a.required && !given[a.name])
  if (missing.length === 0) return given
  const command = stripControls(`/${prompt.server}:${prompt.name}`)
  if (!input.isTTY || !output.isTTY) {
    throw new MessageError(
      `${command} needs ${missing.map((a) => stripControls(a.name)).join(', ')}: ` +
        'give each as name=value (there is no terminal to ask on).',
    )
  }
  const args = { ...given }
  const rl = createInterface({ input, output, terminal: true })
  // Ctrl-C at a question gives up on the prompt
  const cancel = new AbortController()
  const onAbort = (): void => cancel.abort(new MessageError('Not sent.', 'aborted'))
  signal.addEventListener('abort', onAbort, { once: true })
  rl.on('SIGINT', () => {
    output.write('\n')
    onAbort()
  })
  try {
    output.write(`${command} needs:\n`)
    for (const a of missing) {
      const about = a.description ? ` (${stripControls(a.description).replace(/\n/g, ' ')})` : ''
      for (;;) {
        const typed = await ask(rl, `  ${stripControls(a.name)}${about}: `, cancel.signal)
        if (typed.trim() !== '') {
          args[a.name] = typed
          break
        }
        output.write('  It is required.\n')
      }
    }
    return args
  } finally {
    signal.removeEventListener('abort', onAbort)
    rl.close()
  }
}
