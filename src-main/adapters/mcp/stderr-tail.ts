/**
 * Bounded buffers for a server's output streams, so that no amount of output grows memory:
 * - ByteTail, a ring buffer of the LAST bytes of stderr (always drained: a server blocked on
 *   a full pipe hangs, and a flood costs no more than the capacity);
 * - LineSplitter, stdout split into lines, a line without end dropped past a size limit.
 */

/** A fixed-size ring buffer that keeps the LAST `capacity` bytes written to it. */
export class ByteTail {
  private readonly buf: Buffer
  /** index of the next byte to write */
  private head = 0
  private size = 0
  private total = 0

  constructor(readonly capacity: number) {
    this.buf = Buffer.alloc(Math.max(1, Math.floor(capacity)))
  }

  /** bytes written since the start (including those no longer kept) */
  get bytesWritten(): number {
    return this.total
  }

  write(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
    this.total += data.length
    const cap = this.buf.length
    if (data.length >= cap) {
      data.copy(this.buf, 0, data.length - cap)
      this.head = 0
      this.size = cap
      return
    }
    const first = Math.min(data.length, cap - this.head)
    data.copy(this.buf, this.head, 0, first)
    if (first < data.length) data.copy(this.buf, 0, first)
    this.head = (this.head + data.length) % cap
    this.size = Math.min(cap, this.size + data.length)
  }

  /** the kept bytes, oldest first */
  bytes(): Buffer {
    const cap = this.buf.length
    if (this.size < cap) return Buffer.from(this.buf.subarray(this.head - this.size, this.head))
    return Buffer.concat([this.buf.subarray(this.head), this.buf.subarray(0, this.head)])
  }

  /** the kept bytes as UTF-8, without a character cut in half at the start */
  text(): string {
    const bytes = this.bytes()
    let start = 0
    // skip continuation bytes (10xxxxxx) of a character whose first bytes were dropped
    if (this.total > this.size) {
      while (start < bytes.length && start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++
    }
    return bytes.subarray(start).toString('utf8')
  }

  clear(): void {
    this.head = 0
    this.size = 0
  }
}

/** Splits a byte stream into lines; a line longer than `maxBytes` is dropped (reported once). */
/** how much of each end of a dropped line is kept to tell what it was */
const END_BYTES = 512

/**
 * Splits a byte stream into lines of at most `maxBytes`. A longer line is not kept: once it
 * ends, `onDropped` gets its size and its first and last bytes (enough to say which request
 * it answered).
 */
export class LineSplitter {
  private pending: Buffer[] = []
  private pendingBytes = 0
  private dropping: { bytes: number; head: string; tail: Buffer } | null = null

  constructor(private readonly maxBytes: number) {}

  push(
    chunk: Buffer,
    onLine: (line: string) => void,
    onDropped: (bytes: number, ends: { head: string; tail: string }) => void,
  ): void {
    let start = 0
    for (;;) {
      const nl = chunk.indexOf(10, start)
      if (nl === -1) break
      const piece = chunk.subarray(start, nl)
      if (this.dropping) {
        const d = this.dropping
        this.skip(piece)
        this.dropping = null
        onDropped(d.bytes, { head: d.head, tail: d.tail.toString('utf8') })
      } else if (this.pending.length === 0) onLine(piece.toString('utf8'))
      else onLine(Buffer.concat([...this.pending, piece]).toString('utf8'))
      this.pending = []
      this.pendingBytes = 0
      start = nl + 1
    }
    if (start >= chunk.length) return
    const rest = chunk.subarray(start)
    if (this.dropping) return this.skip(rest)
    this.pending.push(rest)
    this.pendingBytes += rest.length
    if (this.pendingBytes > this.maxBytes) {
      const all = Buffer.concat(this.pending)
      this.dropping = {
        bytes: all.length,
        head: all.subarray(0, END_BYTES).toString('utf8'),
        tail: all.subarray(Math.max(0, all.length - END_BYTES)),
      }
      this.pending = []
      this.pendingBytes = 0
    }
  }

  /** more of a dropped line: counted, and its last bytes kept */
  private skip(piece: Buffer): void {
    const d = this.dropping!
    d.bytes += piece.length
    const joined = Buffer.concat([d.tail, piece])
    d.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - END_BYTES)))
  }
}
