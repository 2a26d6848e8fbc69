/**
 * When more tools are connected than a request may carry (the provider's maximum, or the
 * settings' `maxToolsOffered`), the model is offered `find_tools` instead of all of them:
 * it searches every connected tool by name and description, and the tools it finds are
 * offered with their full definitions from the next round on. Built-in tools stay offered
 * while they take at most half of the room. Below the limit this host changes nothing.
 * A call by exact name to a connected tool that this request did not offer runs all the
 * same (models and users name tools they know), under the same checks and approval; the
 * tools an assistant does not allow are not connected for it (see assistant-filter.ts).
 */
import type { ToolCallScope, ToolDescriptor, ToolHost, ToolOutcome } from '../ports'
import { BUILTIN_SERVER } from '../tools/composite-host'
import { uniqueName } from '../tools/tool-names'

/** OpenAI's API refuses a request with more tools than this; OpenAI-compatible servers follow */
export const PROVIDER_MAX_TOOLS = 128
export const DEFAULT_MAX_TOOLS_OFFERED = 40
export const FIND_TOOLS = 'find_tools'
const FIND_TOOLS_FINGERPRINT = 'cairn:find_tools:v1'
/** results of one search, unless the model asks for fewer */
const DEFAULT_RESULTS = 8
const MAX_RESULTS = 20
/** what of a query is searched for: at most this many words of at most this length */
const MAX_WORDS = 16
const MAX_WORD = 64
/** characters of a description searched and shown */
const MAX_DESCRIPTION = 2000
const SHOWN_DESCRIPTION = 240

/** `find_tools` is Cairn's own lookup: it reads nothing outside the turn and is never asked about */
export function isFindTools(tool: ToolDescriptor): boolean {
  return tool.server === BUILTIN_SERVER && tool.fingerprint === FIND_TOOLS_FINGERPRINT
}

/** the number of tools one request may carry */
export function toolLimit(maxToolsOffered: number | undefined): number {
  const wanted =
    Number.isInteger(maxToolsOffered) && maxToolsOffered! >= 2
      ? maxToolsOffered!
      : DEFAULT_MAX_TOOLS_OFFERED
  return Math.min(wanted, PROVIDER_MAX_TOOLS)
}

export interface ToolOffer {
  /** tools connected */
  total: number
  /** the model-visible names of the tools in the request */
  offered: string[]
  /** whether the model got `find_tools` instead of every tool */
  catalog: boolean
}

export class ToolCatalog implements ToolHost {
  private all: ToolDescriptor[] = []
  /** model-visible names of the tools found, oldest first */
  private readonly loaded: string[] = []
  private findName = FIND_TOOLS
  private lastOffer: ToolOffer = { total: 0, offered: [], catalog: false }
  private told = false
  readonly waitUntilReady?: (signal: AbortSignal) => Promise<string[]>

  constructor(
    private readonly inner: ToolHost,
    private readonly limit: number,
  ) {
    if (inner.waitUntilReady) this.waitUntilReady = (s) => inner.waitUntilReady!(s)
  }

  async listTools(): Promise<ToolDescriptor[]> {
    this.all = await this.inner.listTools()
    if (this.all.length <= this.limit) {
      this.lastOffer = {
        total: this.all.length,
        offered: this.all.map((t) => t.name),
        catalog: false,
      }
      return this.all
    }
    this.findName = uniqueName(FIND_TOOLS, new Set(this.all.map((t) => t.name)))
    const builtins = this.all.filter((t) => t.server === BUILTIN_SERVER)
    const pinned = builtins.length <= Math.floor((this.limit - 1) / 2) ? builtins : []
    const room = this.limit - 1 - pinned.length
    const byName = new Map(this.all.map((t) => [t.name, t]))
    const pinnedNames = new Set(pinned.map((t) => t.name))
    const found = this.loaded
      .filter((n) => byName.has(n) && !pinnedNames.has(n))
      .slice(-room)
      .map((n) => byName.get(n)!)
    const offered = [this.findDescriptor(), ...pinned, ...found]
    this.lastOffer = { total: this.all.length, offered: offered.map((t) => t.name), catalog: true }
    return offered
  }

  /** tools to offer as if found (those the conversation used lately), oldest first */
  remember(names: readonly string[]): void {
    for (const n of names) if (n !== this.findName && !this.loaded.includes(n)) this.loaded.push(n)
  }

  /**
   * A connected tool by its model-visible name, offered in this request or not; it is
   * offered with its full definition from the next round on, as if found.
   */
  connected(name: string): ToolDescriptor | undefined {
    const tool = this.all.find((t) => t.name === name)
    if (tool && this.lastOffer.catalog) this.remember([name])
    return tool
  }

  /** what the last `listTools` offered (for the turn log) */
  offer(): ToolOffer {
    return this.lastOffer
  }

  /** said once per turn, the first time the model gets `find_tools` */
  takeNotice(): string | null {
    if (!this.lastOffer.catalog || this.told) return null
    this.told = true
    return (
      `${this.lastOffer.total} tools are connected, more than the ${this.limit} one request may carry: ` +
      `the model gets ${this.findName} to look them up, and the tools it finds are offered from its next step on.`
    )
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolCallScope,
  ): Promise<ToolOutcome> {
    if (this.lastOffer.catalog && name === this.findName) {
      return { content: [{ type: 'text', text: this.find(args) }] }
    }
    return this.inner.callTool(name, args, ctx)
  }

  private find(args: Record<string, unknown>): string {
    const query = typeof args['query'] === 'string' ? args['query'] : ''
    const wanted = typeof args['limit'] === 'number' ? Math.floor(args['limit']) : DEFAULT_RESULTS
    const max = Math.max(1, Math.min(MAX_RESULTS, wanted))
    const words = wordsOf(query)
    if (words.length === 0)
      return 'Give a query: words from the name or purpose of the tool you need.'
    const scored: { tool: ToolDescriptor; score: number }[] = []
    for (const tool of this.all) {
      const score = scoreOf(tool, words)
      if (score > 0) scored.push({ tool, score })
    }
    scored.sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    const hits = scored.slice(0, max).map((s) => s.tool)
    if (hits.length === 0) {
      return `No tool matches "${query.slice(0, 200)}" among the ${this.all.length} connected tools. Try other words.`
    }
    for (const t of hits) {
      const at = this.loaded.indexOf(t.name)
      if (at >= 0) this.loaded.splice(at, 1)
      this.loaded.push(t.name)
    }
    const lines = hits.map((t) => `- ${t.name} (server ${t.server}): ${shorten(t.description)}`)
    return (
      `${hits.length} of ${this.all.length} tools match. Their full definitions are offered from ` +
      `your next step on; call them by these names:\n${lines.join('\n')}`
    )
  }

  private findDescriptor(): ToolDescriptor {
    return {
      name: this.findName,
      server: BUILTIN_SERVER,
      tool: FIND_TOOLS,
      description:
        `More tools are connected than are listed here (${this.all.length} in all). Search them by ` +
        'name and description; the tools found can be called from your next step on.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'words from the name or purpose of the tool' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, default: DEFAULT_RESULTS },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { title: 'Find tools', readOnlyHint: true },
      trusted: true,
      fingerprint: FIND_TOOLS_FINGERPRINT,
    }
  }
}

/** how many of the tools called lately are offered again in a new turn */
const RECENT_TOOLS = 10

/** the names of the tools called last in a history, oldest first, each once */
export function recentToolNames(
  history: readonly { toolCalls?: readonly { name: string }[] | null }[],
): string[] {
  const out: string[] = []
  for (let i = history.length - 1; i >= 0 && out.length < RECENT_TOOLS; i--) {
    for (const c of history[i]!.toolCalls ?? []) {
      if (c.name !== FIND_TOOLS && !out.includes(c.name)) out.push(c.name)
      if (out.length >= RECENT_TOOLS) break
    }
  }
  return out.reverse()
}

function wordsOf(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, MAX_WORD))
  return [...new Set(words)].slice(0, MAX_WORDS)
}

/** plain substring tests (bounded words over bounded text): linear in the text searched */
function scoreOf(tool: ToolDescriptor, words: string[]): number {
  const name = `${tool.name} ${tool.tool}`.toLowerCase()
  const rest =
    `${tool.server} ${tool.annotations.title ?? ''} ${tool.description.slice(0, MAX_DESCRIPTION)}`.toLowerCase()
  let score = 0
  for (const w of words) {
    if (name.includes(w)) score += 3
    else if (rest.includes(w)) score += 1
  }
  return score
}

function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > SHOWN_DESCRIPTION
    ? `${one.slice(0, SHOWN_DESCRIPTION)}…`
    : one || '(no description)'
}
