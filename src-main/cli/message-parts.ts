/**
 * What a message from the command line carries besides its text, read the way the window's
 * `chat.send` reads it (through the tool runtime's resources and prompts: the same resource read, size
 * cap and truncation marker, the same prompt text and mark):
 *
 * - `@server:uri` in the text attaches that server's resource (the mention leaves the text,
 *   as a picked chip does in the window);
 * - a server's prompt (`server:name` with `name=value` arguments) becomes the message.
 */
import type { ContentPart } from '../../src-preload/contract/dto'
import type { McpPrompt } from '../../src-preload/contract/resources-and-prompts'
import { promptOrigin, promptText } from '../services/tools/prompt-message'
import type { ErrorCode } from '../../src-preload/contract/errors'
import { ExpectedError } from '../core/errors'
import type { ToolRuntime } from '../core/service-ports'

/** how long a message or a list waits for the servers still starting */
const SERVERS_SETTLE_MS = 10_000

/** a problem with a mention or a prompt: the message is not sent (a server's refusal keeps its code) */
export class MessageError extends ExpectedError {
  constructor(message: string, code: ErrorCode = 'bad_request') {
    super(code, message)
    this.name = 'MessageError'
  }
}

/** a server's refusal to read or give what the message needs, as a MessageError; a bug goes on */
function notSent(e: unknown): unknown {
  return e instanceof ExpectedError ? new MessageError(e.message, e.code) : e
}

export interface Mention {
  server: string
  uri: string
}

/**
 * The `@server:uri` mentions of a text (each at the start of a word, naming one of
 * `servers`), and the text without them. `@someone:else` that names no server stays text.
 */
function findMentions(
  text: string,
  servers: readonly string[],
): { text: string; mentions: Mention[] } {
  const mentions: Mention[] = []
  const rest = text.replace(
    /(^|\s)@([^\s:@]{1,200}):(\S{1,4096})/g,
    (whole, before: string, server: string, uri: string) => {
      if (!servers.includes(server)) return whole
      mentions.push({ server, uri })
      return before
    },
  )
  return { text: mentions.length > 0 ? rest.replace(/[ \t]{2,}/g, ' ').trim() : text, mentions }
}

/** `server:name`, as `/server:name` in the REPL or `--mcp-prompt` names a prompt */
export function parsePromptName(given: string): { server: string; name: string } | null {
  const m = /^\/?([^\s:/]{1,200}):(\S{1,500})$/.exec(given.trim())
  return m ? { server: m[1]!, name: m[2]! } : null
}

/** `name=value` words (a value may hold spaces inside quotes: name="two words") */
export function parsePromptArgs(words: string): Record<string, string> {
  const args: Record<string, string> = {}
  const re = /\s*([^\s=]+)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/y
  let at = 0
  const rest = words.trim()
  while (at < rest.length) {
    re.lastIndex = at
    const m = re.exec(rest)
    if (!m) {
      const word = rest.slice(at).trim().split(/\s+/)[0]
      throw new MessageError(`"${word}" is not an argument: give each one as name=value`)
    }
    args[m[1]!] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? m[4] ?? '')
    at = re.lastIndex
    while (at < rest.length && /\s/.test(rest[at]!)) at++
  }
  return args
}

/** waits (a while at most) for the servers still starting */
export async function settled(tools: ToolRuntime): Promise<void> {
  await tools.manager.settled(SERVERS_SETTLE_MS)
}

/** reads each mentioned resource into parts (one that cannot be read stops the message) */
async function mentionParts(
  tools: ToolRuntime,
  mentions: readonly Mention[],
): Promise<ContentPart[]> {
  if (mentions.length === 0) return []
  await settled(tools)
  // the name the server lists a resource under labels it, as the picker's chip does
  const listed = (await tools.resourcesAndPrompts.resources()).resources
  const parts: ContentPart[] = []
  for (const m of mentions) {
    const name = listed.find((r) => r.server === m.server && r.uri === m.uri)?.name
    try {
      parts.push(
        ...(await tools.resourcesAndPrompts.read({
          server: m.server,
          uri: m.uri,
          ...(name ? { name } : {}),
        })),
      )
    } catch (e) {
      throw notSent(e)
    }
  }
  return parts
}

/** a typed message with the resources its `@server:uri` mentions attach */
export async function mentionMessage(
  tools: ToolRuntime,
  line: string,
): Promise<{ text: string; parts: ContentPart[] }> {
  const { text, mentions } = findMentions(
    line,
    tools.servers().map((s) => s.name),
  )
  if (!text) throw new MessageError('Say something with the attached resource.')
  return { text, parts: await mentionParts(tools, mentions) }
}

/** the prompt a server offers under that name, or a message saying there is none */
export async function findPrompt(
  tools: ToolRuntime,
  server: string,
  name: string,
): Promise<McpPrompt> {
  await settled(tools)
  const { prompts } = await tools.resourcesAndPrompts.prompts()
  const found = prompts.find((p) => p.server === server && p.name === name)
  if (found) return found
  const offered = prompts.map((p) => `/${p.server}:${p.name}`)
  throw new MessageError(
    `No running server offers the prompt /${server}:${name}.` +
      (offered.length > 0 ? ` There are: ${offered.slice(0, 30).join(', ')}.` : ''),
  )
}

/** a prompt's messages as the user's message, marked with where they came from */
export async function promptMessage(
  tools: ToolRuntime,
  server: string,
  name: string,
  args: Record<string, string>,
): Promise<{ text: string; parts: ContentPart[] }> {
  let text: string
  try {
    text = promptText(await tools.resourcesAndPrompts.prompt(server, name, args))
  } catch (e) {
    throw notSent(e)
  }
  if (!text) throw new MessageError(`The prompt /${server}:${name} is empty.`)
  return { text, parts: [promptOrigin(server, name)] }
}
