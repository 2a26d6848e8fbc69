/**
 * fetch_url: one GET of an http(s) address, with a size cap, a timeout and the call's
 * abort signal. HTML comes back as readable text, JSON and other text as is; anything
 * else is described by its type and size only.
 *
 * Annotations: fetch_url changes nothing on the user's machine, but it is NOT marked
 * read-only: the address itself carries data to a server of the model's choosing, so a
 * model steered by a hostile page could send out what read_file (read-only, approved
 * without asking under the `read-only` policy) has read. Every fetch is therefore asked
 * for, like any tool that reaches the outside (`openWorldHint: true`).
 *
 * Redirects are followed here, one hop at a time (at most MAX_REDIRECTS): every hop's host
 * is resolved and checked, and the connection pinned to the checked address (net-guard.ts).
 */
import { Agent } from 'undici'
import { htmlToText } from './html-text'
import { checkDestination, pinnedLookup } from './net-guard'
import {
  formatBytes,
  looksBinary,
  optionalInt,
  stringArg,
  text,
  ToolError,
  type BuiltinTool,
  type ToolEnv,
} from './tool-def'

export const DEFAULT_FETCH_CHARS = 50_000
export const MAX_FETCH_CHARS = 500_000
const USER_AGENT = 'Cairn (desktop AI assistant; fetch_url)'
export const MAX_REDIRECTS = 10
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308])

export const fetchUrlTool: BuiltinTool = {
  name: 'fetch_url',
  description:
    'Fetch a web page or file over http or https (GET) and return it as text: the final ' +
    'address after redirects and the status first, then the content. HTML pages are turned ' +
    'into readable text (scripts, styles and navigation removed); JSON and plain text come ' +
    'back as they are; other content (images, PDFs, archives) is described by type and size ' +
    `only. Long content is cut at maxChars characters (default ${DEFAULT_FETCH_CHARS}). ` +
    'Addresses on this machine, the local network and cloud metadata services are refused ' +
    'unless the user allowed the host.',
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The full http:// or https:// address' },
      maxChars: {
        type: 'integer',
        minimum: 100,
        maximum: MAX_FETCH_CHARS,
        description: `Most characters of content to return (default ${DEFAULT_FETCH_CHARS})`,
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Fetch URL',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async run(args, env) {
    const input = stringArg(args, 'url').trim()
    const maxChars = optionalInt(args, 'maxChars', 1, MAX_FETCH_CHARS) ?? DEFAULT_FETCH_CHARS
    const url = parseHttpUrl(input)
    const fetched = await fetchFollowingRedirects(url, env)
    return text(describeResponse(fetched, maxChars, env), fetched.res.status >= 400)
  },
}

interface Fetched {
  res: Response
  /** the address after redirects */
  finalUrl: string
  body: { bytes: Uint8Array; cut: boolean }
}

/**
 * GETs the address, following redirects one checked hop at a time, and reads the body up
 * to the size cap; a failure says at which step, and the timeout says so.
 */
async function fetchFollowingRedirects(url: URL, env: ToolEnv): Promise<Fetched> {
  const timeout = AbortSignal.timeout(env.limits.fetchTimeoutMs)
  const signal = AbortSignal.any([env.ctx.signal, timeout])
  const failed = (e: unknown, when: string): Error => {
    if (env.ctx.signal.aborted)
      return env.ctx.signal.reason instanceof Error ? env.ctx.signal.reason : new Error('cancelled')
    if (timeout.aborted) {
      return new ToolError(
        `${url.href} did not answer within ${env.limits.fetchTimeoutMs / 1000} s (${when}); try again later or another address.`,
      )
    }
    return new ToolError(`Fetching ${url.href} failed (${when}): ${describeFetchError(e)}`)
  }
  let current = url
  let agent: Agent | null = null
  try {
    for (let hop = 0; ; hop++) {
      const targets = await checkDestination(current, env.fetchAllowedHosts, env.resolve)
      agent = new Agent({ connect: { lookup: pinnedLookup(targets) } })
      let res: Response
      try {
        res = await env.fetch(current.href, {
          signal,
          redirect: 'manual',
          headers: {
            'user-agent': USER_AGENT,
            accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5',
          },
          dispatcher: agent,
        } as RequestInit)
      } catch (e) {
        throw failed(e, 'connecting')
      }
      const location = res.headers.get('location')
      if (!REDIRECT_STATUS.has(res.status) || location === null) {
        try {
          const body = await readCapped(res, env.limits.fetchMaxBytes)
          return { res, finalUrl: current.href, body }
        } catch (e) {
          throw failed(e, 'reading the response')
        }
      }
      await res.body?.cancel().catch(() => {})
      await agent.close().catch(() => {})
      agent = null
      if (hop >= MAX_REDIRECTS) {
        throw new ToolError(
          `${url.href} redirected more than ${MAX_REDIRECTS} times (last to ${location}); not followed further.`,
        )
      }
      current = redirectTarget(current, location)
    }
  } finally {
    await agent?.close().catch(() => {})
  }
}

/** The status and type, then the content as text (cut at `maxChars`), or what it is. */
function describeResponse(
  { res, finalUrl, body }: Fetched,
  maxChars: number,
  env: ToolEnv,
): string {
  const contentType = res.headers.get('content-type') ?? ''
  const head = [
    `URL: ${finalUrl}`,
    `Status: ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`,
    `Content-Type: ${contentType || '(none)'}`,
  ]
  const content = renderBody(body.bytes, contentType, head, finalUrl)
  const notes: string[] = []
  if (body.cut) notes.push(`[the response was cut at ${formatBytes(env.limits.fetchMaxBytes)}]`)
  let shown = content
  if (content !== null && content.length > maxChars) {
    shown = content.slice(0, maxChars)
    notes.push(
      `[content cut at ${maxChars} of ${content.length} characters; call again with a larger maxChars (up to ${MAX_FETCH_CHARS}) to see more]`,
    )
  }
  if (shown === null) {
    const size = body.cut
      ? `more than ${formatBytes(body.bytes.length)}`
      : formatBytes(body.bytes.length)
    notes.length = 0
    shown = `[${mimeOf(contentType) || 'binary content'}, ${size}: not shown; fetch_url returns HTML, text and JSON only]`
  }
  return `${head.join('\n')}\n\n${shown}${notes.length > 0 ? `\n${notes.join('\n')}` : ''}`
}

/** The next hop of a redirect: http(s) only (it is checked like the first one). */
function redirectTarget(from: URL, location: string): URL {
  const next = URL.parse(location, from.href)
  if (!next)
    throw new ToolError(`${from.href} redirected to "${location}", which is not a valid URL.`)
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new ToolError(
      `${from.href} redirected to ${next.protocol} (${next.href}); fetch_url follows http:// and https:// only.`,
    )
  }
  return next
}

function parseHttpUrl(input: string): URL {
  const url = URL.parse(input)
  if (!url) {
    throw new ToolError(
      `"${input}" is not a valid URL; give a full address starting with http:// or https://.`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(
      `fetch_url only fetches http:// and https:// addresses; ${url.protocol} URLs are refused. ` +
        'To read a file in the workspace, use read_file.',
    )
  }
  return url
}

async function readCapped(
  res: Response,
  max: number,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(0), cut: false }
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  let cut = false
  while (true) {
    const { done, value } = await reader.read()
    if (done) break
    if (total + value.length > max) {
      chunks.push(value.subarray(0, max - total))
      total = max
      cut = true
      await reader.cancel().catch(() => {})
      break
    }
    chunks.push(value)
    total += value.length
  }
  return { bytes: Buffer.concat(chunks, total), cut }
}

function mimeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase()
}

/**
 * The body as text for the model, or null when it is not text. `head` gets a title line;
 * links in HTML are resolved against `url`.
 */
function renderBody(
  bytes: Uint8Array,
  contentType: string,
  head: string[],
  url: string,
): string | null {
  const mime = mimeOf(contentType)
  let kind: 'html' | 'text' | null
  if (mime === 'text/html' || mime === 'application/xhtml+xml') kind = 'html'
  else if (isTextual(mime)) kind = 'text'
  else if (mime === '' || mime === 'application/octet-stream')
    kind = looksBinary(bytes) ? null : sniffHtml(bytes) ? 'html' : 'text'
  else kind = null
  if (kind === null) return null
  const decoded = decode(bytes, contentType, kind === 'html')
  if (kind === 'text') return decoded
  const { title, text: body } = htmlToText(decoded, url)
  if (title) head.push(`Title: ${title}`)
  return body
}

function isTextual(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    /^application\/(json|ld\+json|xml|javascript|ecmascript|x-ndjson|x-yaml|yaml|toml|csv|x-sh|sql|graphql)$/.test(
      mime,
    ) ||
    mime.endsWith('+json') ||
    mime.endsWith('+xml')
  )
}

function sniffHtml(bytes: Uint8Array): boolean {
  const start = Buffer.from(bytes.subarray(0, 1024)).toString('latin1').trimStart().toLowerCase()
  return start.startsWith('<!doctype html') || start.startsWith('<html')
}

function decode(bytes: Uint8Array, contentType: string, html: boolean): string {
  let charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]
  if (!charset && html) {
    const start = Buffer.from(bytes.subarray(0, 2048)).toString('latin1')
    charset = /<meta[^>]+charset\s*=\s*["']?([a-zA-Z0-9_-]+)/i.exec(start)?.[1]
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

function describeFetchError(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as Error & { cause?: unknown }).cause
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code
    return code ? `${cause.message} (${code})` : cause.message
  }
  return e.message
}
