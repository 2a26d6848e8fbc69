/**
 * The one cap on what Cairn reads over HTTP from an MCP server or its authorization server.
 * Every fetch of a remote server's transport (Streamable HTTP and SSE) and of its login
 * (discovery, registration, tokens) goes through `cappedFetch`: an answer from the server's
 * own address is a message, read up to `MAX_MESSAGE_BYTES` as a stdio line is (an event
 * stream counts each event, so a stream that stays open for hours is not cut); anything else
 * (metadata documents, token and registration answers) is small, up to `MAX_DOCUMENT_BYTES`.
 * Past the cap the read stops (the connection is dropped) and the body fails with
 * `AnswerTooLarge`, saying what was cut and how big it was; nothing past it is parsed.
 */
import type { FetchLike } from '@modelcontextprotocol/client'
import { ExpectedError } from '../../core/errors'

/** the largest message read from a server (a stdio line has the same cap) */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024
/** the largest metadata document, token or registration answer (they are a few KB) */
export const MAX_DOCUMENT_BYTES = 1024 * 1024

/** An answer cut at its cap: the server failed Cairn (`unavailable`); the message says what was cut. */
export class AnswerTooLarge extends ExpectedError<'unavailable'> {
  constructor(message: string) {
    super('unavailable', message)
  }
}

const mb = (n: number): string =>
  n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} KB`

function tooLarge(url: URL, limit: number, kind: 'message' | 'document'): AnswerTooLarge {
  const what = kind === 'message' ? 'A message' : 'An authorization document'
  return new AnswerTooLarge(
    `${what} from ${url.origin}${url.pathname} is larger than ${mb(limit)}: Cairn stopped reading it at ${mb(limit)}.`,
  )
}

/** where the blank line that ends an event is, in `bytes` (after `carry`), or -1 */
function lastEventEnd(carry: Uint8Array, bytes: Uint8Array): number {
  const joined = Buffer.concat([carry, bytes])
  const at = Math.max(
    joined.lastIndexOf('\n\n'),
    joined.lastIndexOf('\r\n\r\n'),
    joined.lastIndexOf('\r\r'),
  )
  return at < 0 ? -1 : at - carry.length
}

/** `body` as a stream that fails once `limit` bytes (per event, for an event stream) pass */
function limitStream(
  body: ReadableStream<Uint8Array>,
  limit: number,
  perEvent: boolean,
  error: () => Error,
): ReadableStream<Uint8Array> {
  let count = 0
  let carry = new Uint8Array(0)
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (perEvent) {
          const end = lastEventEnd(carry, chunk)
          count = end >= 0 ? chunk.length - end : count + chunk.length
          carry = chunk.slice(-3)
        } else count += chunk.length
        if (count > limit) controller.error(error())
        else controller.enqueue(chunk)
      },
    }),
  )
}

/**
 * `inner` (default: the global fetch) with every answer's body capped; `messageUrl` is the
 * server's own address (its answers are messages). `onRefused` hears of every answer cut
 * (the SDK's discovery swallows some failures: the login says what was cut).
 */
export function cappedFetch(
  messageUrl: string,
  inner: FetchLike = fetch,
  onRefused?: (e: AnswerTooLarge) => void,
): FetchLike {
  const own = new URL(messageUrl)
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const kind = url.origin === own.origin && url.pathname === own.pathname ? 'message' : 'document'
    const limit = kind === 'message' ? MAX_MESSAGE_BYTES : MAX_DOCUMENT_BYTES
    const res = await inner(input, init)
    // a status that has no body cannot be given one
    if (!res.body || [101, 204, 205, 304].includes(res.status)) return res
    const refuse = (): AnswerTooLarge => {
      const e = tooLarge(url, limit, kind)
      onRefused?.(e)
      return e
    }
    const declared = Number(res.headers.get('content-length'))
    if (declared > limit) {
      await res.body.cancel().catch(() => {})
      throw refuse()
    }
    const perEvent = /^text\/event-stream\b/i.test(res.headers.get('content-type') ?? '')
    const capped = new Response(limitStream(res.body, limit, perEvent, refuse), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    })
    Object.defineProperty(capped, 'url', { value: res.url })
    return capped
  }
}
