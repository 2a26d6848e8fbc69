/**
 * An MCP registry's v0.1 API (its address is the setting `mcpRegistryUrl`): servers found
 * by words, and one server's `server.json`. The answers are read up to a size limit and
 * checked with zod (`server-json.ts`) before anything uses them.
 */
import type { RegistrySearchResult } from '../../../src-preload/contract/mcp-registry'
import { ExpectedError } from '../errors'
import type { Fetch } from '../ports'
import { summaryOf } from './install-plan'
import { listAnswerSchema, serverAnswerSchema, type ServerAnswer } from './server-json'

const TIMEOUT_MS = 15_000
/** the most of an answer Cairn reads */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024
/** the words of a search asked for, each on its own (the registry matches names) */
const MAX_WORDS = 5
const PAGE = 30

export class McpRegistryClient {
  private readonly base: string

  constructor(
    base: string,
    private readonly fetchFn: Fetch,
  ) {
    this.base = base.replace(/\/+$/, '')
  }

  private unreachable(why: string, cause?: unknown): ExpectedError<'registry_unreachable'> {
    return new ExpectedError(
      'registry_unreachable',
      `The MCP registry at ${this.base} ${why}. Check the network, or the registry's address in Settings › MCP servers.`,
      cause === undefined ? {} : { cause },
    )
  }

  private async get(path: string, signal?: AbortSignal): Promise<unknown> {
    let res: Response
    try {
      const timeout = AbortSignal.timeout(TIMEOUT_MS)
      res = await this.fetchFn(`${this.base}${path}`, {
        headers: { accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
    } catch (e) {
      if (signal?.aborted) throw e
      const cause = (e as { cause?: { code?: string } }).cause
      throw this.unreachable(`could not be reached (${cause?.code ?? (e as Error).message})`, e)
    }
    if (res.status === 404) {
      await drop(res)
      return null
    }
    if (!res.ok) {
      await drop(res)
      throw this.unreachable(`answered HTTP ${res.status}`)
    }
    const text = await readCapped(res, MAX_ANSWER_BYTES)
    if (text === null) throw this.unreachable('sent an answer larger than Cairn reads')
    try {
      return JSON.parse(text)
    } catch {
      throw this.unreachable('answered something that is not JSON')
    }
  }

  /**
   * Servers whose name has one of the words (the registry's own search, one request a
   * word), best first: those with more of the words in their name, title or description.
   */
  async search(query: string, signal?: AbortSignal): Promise<RegistrySearchResult> {
    const words = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, MAX_WORDS)
    if (words.length === 0) throw new ExpectedError('bad_request', 'Give a word to search for.')
    const found = new Map<string, ServerAnswer>()
    let leftOut = 0
    for (const word of words) {
      const q = `search=${encodeURIComponent(word)}&version=latest&limit=${PAGE}`
      const list = listAnswerSchema.safeParse(await this.get(`/v0.1/servers?${q}`, signal))
      if (!list.success) throw this.unreachable('answered a search in a form Cairn does not read')
      for (const raw of list.data.servers) {
        const entry = serverAnswerSchema.safeParse(raw)
        if (!entry.success) leftOut++
        else if (!found.has(entry.data.server.name)) found.set(entry.data.server.name, entry.data)
      }
    }
    const hits = (a: ServerAnswer): number => {
      const hay = `${a.server.name} ${a.server.title ?? ''} ${a.server.description}`.toLowerCase()
      return words.filter((w) => hay.includes(w)).length
    }
    const servers = [...found.values()]
      .map((a) => ({ a, n: hits(a) }))
      .sort((x, y) => y.n - x.n || x.a.server.name.localeCompare(y.a.server.name))
      .map(({ a }) => summaryOf(a))
    return { registry: this.base, servers, leftOut }
  }

  /** One server's latest `server.json` (or the version asked for). */
  async server(name: string, version = 'latest', signal?: AbortSignal): Promise<ServerAnswer> {
    if (!/^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(name) || name.length > 200)
      throw new ExpectedError(
        'bad_request',
        `"${name}" is not a registry name (such as io.github.owner/server).`,
      )
    const path = `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`
    const raw = await this.get(path, signal)
    if (raw === null)
      throw new ExpectedError(
        'not_found',
        `The MCP registry at ${this.base} has no server named ${name}.`,
      )
    const answer = serverAnswerSchema.safeParse(raw)
    if (!answer.success) throw this.unreachable(`describes ${name} in a form Cairn does not read`)
    if (answer.data.server.name !== name)
      throw this.unreachable(`answered about ${answer.data.server.name} when asked for ${name}`)
    return answer.data
  }
}

/** lets go of an answer's body unread */
async function drop(res: Response): Promise<void> {
  await res.body?.[Symbol.asyncIterator]().return?.()
}

/** the body as text, or null past `max` bytes */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body) {
    size += chunk.byteLength
    // leaving the loop cancels the rest of the body
    if (size > max) return null
    chunks.push(chunk)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    all.set(c, at)
    at += c.byteLength
  }
  return new TextDecoder().decode(all)
}
