/**
 * Watches the raw bytes of one streamed response on their way to the SDK, which hides what
 * a stream's completeness depends on: whether `data: [DONE]` arrived (the SDK swallows it),
 * what a body that is not an event stream began with (the SDK finds no events in it and ends
 * quietly), and the last bytes before an in-stream error (the SDK keeps only its `error`
 * field). Per chunk it does one short byte search and keeps references, no copies.
 */

import type { Fetch } from '../ports'

const HEAD_BYTES = 512
const TAIL_BYTES = 8192
const DONE = new TextEncoder().encode('[DONE]')
const DATA = new TextEncoder().encode('data:')
/** as Buffer's toString did: a byte order mark is kept, a broken sequence becomes U+FFFD */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

export class BodyTap {
  /** HTTP status and content type of the response (null until it arrived) */
  status: number | null = null
  contentType = ''
  /** a `data: [DONE]` line arrived */
  sawDone = false
  bytes = 0
  private readonly head: Uint8Array[] = []
  private headBytes = 0
  private tail: Uint8Array[] = []
  private tailBytes = 0
  /** the last bytes of the previous chunk, for a `[DONE]` cut across two chunks */
  private carry: Uint8Array = new Uint8Array(0)

  /** A `fetch` that records into this tap. */
  wrap(base: Fetch): Fetch {
    return async (input, init) => {
      const res = await base(input, init)
      this.status = res.status
      this.contentType = res.headers.get('content-type') ?? ''
      if (!res.body) return res
      const tap = new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          this.see(chunk)
          controller.enqueue(chunk)
        },
      })
      return new Response(res.body.pipeThrough(tap), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      })
    }
  }

  see(buf: Uint8Array): void {
    this.bytes += buf.length
    if (this.headBytes < HEAD_BYTES) {
      this.head.push(buf)
      this.headBytes += buf.length
    }
    this.tail.push(buf)
    this.tailBytes += buf.length
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0]?.length ?? 0) >= TAIL_BYTES) {
      this.tailBytes -= this.tail.shift()?.length ?? 0
    }
    if (!this.sawDone) {
      const prev = this.carry.length > 0 ? (this.carry[this.carry.length - 1] ?? 0x0a) : 0x0a
      if (doneLine(buf, prev)) this.sawDone = true
      else if (this.carry.length > 0) {
        // a `data: [DONE]` cut between the two chunks
        const seam = concat([this.carry, buf.subarray(0, 16)])
        if (doneLine(seam, 0x00)) this.sawDone = true
      }
      this.carry = buf.slice(Math.max(0, buf.length - 16))
    }
  }

  /** The first bytes of the body, as text. */
  headText(): string {
    return utf8.decode(concat(this.head).subarray(0, HEAD_BYTES))
  }

  /** Whether the body starts like an event stream (a field line, a comment or blank lines). */
  looksLikeEventStream(): boolean {
    const start = this.headText()
      .replace(/^\uFEFF/, '')
      .trimStart()
    if (start === '') return true
    return /^(data|event|id|retry)\s*:|^:/.test(start)
  }

  /** The last `data:` event that carried an `error`, parsed (null when none is in the tail). */
  lastErrorEvent(): Record<string, unknown> | null {
    const text = utf8.decode(concat(this.tail))
    const lines = text.split(/\r?\n/)
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i] ?? ''
      if (!line.startsWith('data:') || !line.includes('"error"')) continue
      try {
        const v: unknown = JSON.parse(line.slice(5).trim())
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
          return v as Record<string, unknown>
        }
      } catch {
        // a cut line: keep looking further up
      }
    }
    return null
  }
}

/**
 * Whether `buf` holds a `data: [DONE]` (or `data:[DONE]`) at the start of a line; `prev` is
 * the byte before `buf` (a newline at the start of the body).
 */
function doneLine(buf: Uint8Array, prev: number): boolean {
  let from = 0
  for (;;) {
    const at = indexOfBytes(buf, DONE, from)
    if (at < 0) return false
    let i = at - 1
    while (i >= 0 && buf[i] === 0x20) i--
    // `data:` right before (after optional spaces), itself at the start of a line or the body
    if (i >= 4 && startsWithAt(buf, DATA, i - 4)) {
      const before = i - 5 < 0 ? prev : buf[i - 5]
      if (before === 0x0a || before === 0x0d) return true
    }
    from = at + 1
  }
}

/** Where `needle` first occurs in `hay` at or after `from` (-1: nowhere). */
function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!
  for (let at = hay.indexOf(first, from); at >= 0; at = hay.indexOf(first, at + 1)) {
    if (startsWithAt(hay, needle, at)) return at
  }
  return -1
}

/** Whether `hay` holds `needle` at `at`. */
function startsWithAt(hay: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at < 0 || at + needle.length > hay.length) return false
  for (let k = 0; k < needle.length; k++) if (hay[at + k] !== needle[k]) return false
  return true
}

/** The chunks as one array (the one chunk itself when there is one). */
function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
