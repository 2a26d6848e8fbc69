/**
 * Slash commands, handled in the window and never sent to the model: `/new`, `/model
 * <name>`, `/stop`, `/compact`, `/help`. Pure functions: parsing and Tab completion.
 */
/** `help` is the English text; the window shows composer.help.* in its language */
export const COMMANDS = [
  { name: 'new', usage: '/new', help: 'start a new chat' },
  { name: 'model', usage: '/model <name>', help: 'switch this chat’s model (Tab completes)' },
  { name: 'stop', usage: '/stop', help: 'stop the answer being written' },
  {
    name: 'compact',
    usage: '/compact',
    help: 'summarize the earlier conversation now (it can be undone)',
  },
  { name: 'help', usage: '/help', help: 'list the commands and shortcuts' },
] as const

export const SHORTCUTS = [
  { keys: 'Enter', key: 'send', help: 'send' },
  { keys: 'Shift+Enter', key: 'newLine', help: 'new line' },
  { keys: 'Esc', key: 'stop', help: 'stop the answer' },
  { keys: 'Tab', key: 'complete', help: 'complete a command, a server prompt or a model name' },
  { keys: '@', key: 'resource', help: 'attach a resource of an MCP server' },
  {
    keys: '/server:prompt',
    key: 'prompt',
    help: 'send a prompt of an MCP server (its arguments are asked)',
  },
  { keys: 'Ctrl/Cmd+K', key: 'search', help: 'search the chats' },
  { keys: 'Ctrl/Cmd+N', key: 'newChat', help: 'new chat' },
  { keys: 'Ctrl/Cmd+,', key: 'settings', help: 'settings' },
] as const

export type Command =
  | { kind: 'new' }
  | { kind: 'model'; name: string | null }
  | { kind: 'stop' }
  | { kind: 'compact' }
  | { kind: 'help' }
  | { kind: 'unknown'; name: string }

/**
 * A command is one line: a slash, a word, and for `/model` an argument. Anything else
 * (`/etc/hosts is missing`, several lines) is a message.
 */
export function parseCommand(text: string): Command | null {
  const m = /^\/([A-Za-z][\w-]*)(?:[ \t]+([^\n]*))?$/.exec(text.trim())
  if (!m) return null
  const name = m[1]!.toLowerCase()
  const arg = (m[2] ?? '').trim()
  switch (name) {
    case 'new':
      return { kind: 'new' }
    case 'stop':
      return { kind: 'stop' }
    case 'compact':
      return { kind: 'compact' }
    case 'help':
      return { kind: 'help' }
    case 'model':
      return { kind: 'model', name: arg || null }
    default:
      return { kind: 'unknown', name }
  }
}

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return ''
  let p = words[0]!
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1)
  return p
}

export interface Completion {
  text: string
  /** what could follow, when more than one thing could */
  candidates: string[]
}

/** Tab: completes a command name, or a model name after `/model `. Null: nothing to do. */
export function complete(text: string, models: readonly string[]): Completion | null {
  const cmd = /^\/([A-Za-z]*)$/.exec(text)
  if (cmd) {
    const typed = cmd[1]!.toLowerCase()
    const names = COMMANDS.map((c) => c.name).filter((n) => n.startsWith(typed))
    if (names.length === 0) return null
    if (names.length === 1)
      return { text: `/${names[0]}${names[0] === 'model' ? ' ' : ''}`, candidates: [] }
    return { text: `/${commonPrefix(names)}`, candidates: names.map((n) => `/${n}`) }
  }
  const model = /^\/model[ \t]+(.*)$/i.exec(text)
  if (model) {
    const typed = model[1]!
    const lower = typed.toLowerCase()
    const matches = models.filter((m) => m.toLowerCase().startsWith(lower))
    const pool =
      matches.length > 0 ? matches : models.filter((m) => m.toLowerCase().includes(lower))
    if (pool.length === 0) return null
    if (pool.length === 1) return { text: `/model ${pool[0]}`, candidates: [] }
    const prefix = matches.length > 0 ? commonPrefix(pool) : typed
    return { text: `/model ${prefix.length > typed.length ? prefix : typed}`, candidates: pool }
  }
  return null
}
