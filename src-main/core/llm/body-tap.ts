/**
 * Watches the raw bytes of one streamed response on their way to the SDK, which hides what
 * a stream's completeness depends on: whether `data: [DONE]` arrived (the SDK swallows it),
 * what a body that is not an event stream began with (the SDK finds no events in it and ends
 * quietly), and the last bytes before an in-stream error (the SDK keeps only its `error`
 * field). Per chunk it does one short byte search and keeps references, no copies.
 */

const HEAD_BYTES = 512
const TAIL_BYTES = 8192
const DONE = Buffer.from('[DONE]')

export class BodyTap {
  /** HTTP status and content type of the response (null until it arrived) */
  status: number | null = null
  contentType = ''
  /** a `data: [DONE]` line arrived */
  sawDone = false
  bytes = 0
  private readonly head: Buffer[] = []
  private headBytes = 0
  private tail: Buffer[] = []
  private tailBytes = 0
  /** the last bytes of the previous chunk, for a `[DONE]` cut across two chunks */
  private carry: Buffer = Buffer.alloc(0)

  /** A `fetch` that records into this tap. */
  wrap(base: typeof fetch): typeof fetch {
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

  see(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
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
        const seam = Buffer.concat([this.carry, buf.subarray(0, 16)])
        if (doneLine(seam, 0x00)) this.sawDone = true
      }
      this.carry = Buffer.from(buf.subarray(Math.max(0, buf.length - 16)))
    }
  }

  /** The first bytes of the body, as text. */
  headText(): string {
    return Buffer.concat(this.head).subarray(0, HEAD_BYTES).toString('utf8')
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
    const text = Buffer.concat(this.tail).toString('utf8')
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
function doneLine(buf: Buffer, prev: number): boolean {
  let from = 0
  for (;;) {
    const at = buf.indexOf(DONE, from)
    if (at < 0) return false
    let i = at - 1
    while (i >= 0 && buf[i] === 0x20) i--
    // `data:` right before (after optional spaces), itself at the start of a line or the body
    if (i >= 4 && buf.subarray(i - 4, i + 1).toString('latin1') === 'data:') {
      const before = i - 5 < 0 ? prev : buf[i - 5]
      if (before === 0x0a || before === 0x0d) return true
    }
    from = at + 1
  }
}
