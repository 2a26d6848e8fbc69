/**
 * What a line typed at `cairn chat` asks for: a message (the default), one of the REPL's
 * own commands, or a server's prompt (`/server:prompt name=value …`). A line beginning
 * with `//` is a message beginning with one `/`.
 */
export type ChatCommand =
  | { kind: 'message'; text: string }
  | { kind: 'empty' }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'new' }
  | { kind: 'model'; name?: string }
  | { kind: 'session'; id?: string }
  | { kind: 'assistant'; name?: string }
  | { kind: 'resources' }
  | { kind: 'prompts' }
  | { kind: 'voice'; action?: string; source?: string }
  | { kind: 'attach'; path?: string }
  | { kind: 'prompt'; server: string; name: string; args: string }
  | { kind: 'unknown'; name: string }

export function parseChatLine(line: string): ChatCommand {
  const text = line.trim()
  if (text === '') return { kind: 'empty' }
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) }
  if (!text.startsWith('/')) return { kind: 'message', text }
  const [head = '', ...words] = text.slice(1).split(/\s+/)
  const rest = text.slice(1 + head.length).trim()
  const colon = head.indexOf(':')
  if (colon > 0 && colon < head.length - 1) {
    return { kind: 'prompt', server: head.slice(0, colon), name: head.slice(colon + 1), args: rest }
  }
  switch (head.toLowerCase()) {
    case 'help':
    case '?':
      return { kind: 'help' }
    case 'quit':
    case 'exit':
      return { kind: 'quit' }
    case 'new':
      return { kind: 'new' }
    case 'model':
      return rest ? { kind: 'model', name: rest } : { kind: 'model' }
    case 'session':
      return rest ? { kind: 'session', id: rest } : { kind: 'session' }
    case 'assistant':
      return rest ? { kind: 'assistant', name: rest } : { kind: 'assistant' }
    case 'resources':
      return { kind: 'resources' }
    case 'prompts':
      return { kind: 'prompts' }
    case 'attach':
      return rest ? { kind: 'attach', path: rest } : { kind: 'attach' }
    case 'voice': {
      const [action, source] = words
      return {
        kind: 'voice',
        ...(action ? { action: action.toLowerCase() } : {}),
        ...(source ? { source: source.toLowerCase() } : {}),
      }
    }
    default:
      return { kind: 'unknown', name: head }
  }
}

export const CHAT_HELP = `Type a message and press Enter to send it. Commands:
  /help                     this text
  /new                      start a new session (the next message begins it)
  /model [name]             show the model, or use that one from the next message on
  /session [id]             show the session, or continue another (a unique beginning of its id)
  /assistant [name]         show the session's assistant, or use that one from the next message on
                            (\`cairn assistants list\` shows them)
  /resources                list the MCP servers' resources; @server:uri in a message attaches one
  /prompts                  list the MCP servers' prompts
  /attach <path>            attach a file (an image, a PDF, an Office or OpenDocument file,
                            text) to your next message; read now. /attach alone lists them
  /server:prompt [name=value …]
                            send a server's prompt as your message (missing required
                            arguments are asked for)
  /voice start [microphone|loopback], /voice status, /voice stop
                            talk instead of typing: each sentence is sent as a message
  /quit                     leave (so do Ctrl-D and Ctrl-C twice at an empty prompt)
Ctrl-C stops the answer being written. A line starting with // sends it with one /.
With files attached, Enter on an empty line sends them alone.`
