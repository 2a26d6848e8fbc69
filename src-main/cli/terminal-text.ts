/**
 * The one place that makes text the CLI did not write itself (model text, tool names,
 * arguments and results, MCP server output, stored sessions) safe for a terminal.
 *
 * It removes escape sequences (CSI such as screen clearing and cursor moves, OSC such as
 * clipboard writes and window titles, DCS/APC/PM/SOS strings, two-character escapes such
 * as a full reset), the 8-bit C1 controls, every other C0 control except tab and newline
 * (a carriage return or backspace could overwrite what was shown), DEL, and the Unicode
 * bidirectional overrides and isolates (they reorder what is shown). It is a single pass
 * over the characters with a little state, so chunks may split a sequence anywhere and a
 * hostile text costs linear time.
 *
 * `guardStream` wraps a stream so every write goes through it; the CLI's own sequences
 * (dim text, erasing a discarded partial answer) go out with `writeOwn`. `--raw` skips
 * the guard.
 */
import { StringDecoder } from 'node:string_decoder'

const ESC = 0x1b
const BEL = 0x07

type State =
  | 'text'
  | 'esc' // after ESC
  | 'esc-intermediate' // ESC followed by 0x20–0x2F, waiting for the final byte
  | 'csi' // inside ESC [ … (or 8-bit CSI)
  | 'string' // inside OSC/DCS/APC/PM/SOS, until BEL or ST
  | 'string-esc' // ESC seen inside a string: `\` ends it

function isBidiControl(c: number): boolean {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
}

/** Strips control sequences from text that arrives in chunks (a stream). */
export class ControlStripper {
  private state: State = 'text'

  push(text: string): string {
    let out = ''
    let runStart = -1 // the start of a run of plain characters, copied in one slice
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (this.state === 'text') {
        if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x09) {
          if (runStart < 0) runStart = i
          continue
        }
        if (c >= 0xa0 && !isBidiControl(c)) {
          if (runStart < 0) runStart = i
          continue
        }
        if (runStart >= 0) out += text.slice(runStart, i)
        runStart = -1
        this.control(c)
        continue
      }
      // a sequence ended by a newline gives the newline back
      if (this.step(c) && c === 0x0a) out += '\n'
    }
    if (runStart >= 0) out += text.slice(runStart)
    return out
  }

  /** A control character met in plain text: dropped, or the start of a sequence. */
  private control(c: number): void {
    if (c === ESC) this.state = 'esc'
    else if (c === 0x9b) this.state = 'csi'
    else if (c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f)
      this.state = 'string'
    // any other C0, DEL, C1 or bidi control is dropped
  }

  /** One character inside a sequence; it is never printed. Returns true when it ended one. */
  private step(c: number): boolean {
    switch (this.state) {
      case 'esc':
        if (c === 0x5b) this.state = 'csi'
        else if (c === 0x5d || c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f)
          this.state = 'string'
        else if (c >= 0x20 && c <= 0x2f) this.state = 'esc-intermediate'
        else if (c === ESC) this.state = 'esc'
        else this.state = 'text' // ESC c, ESC 7, … : both characters are dropped
        break
      case 'esc-intermediate':
        if (c >= 0x20 && c <= 0x2f) break
        this.state = 'text'
        break
      case 'csi':
        // parameters and intermediates go on; a final byte, or anything a CSI cannot
        // hold (a control, a non-ASCII character), ends it
        if (c >= 0x20 && c <= 0x3f) break
        this.state = c === ESC ? 'esc' : 'text'
        break
      case 'string':
        if (c === BEL || c === 0x9c || c === 0x0a) this.state = 'text'
        else if (c === ESC) this.state = 'string-esc'
        break
      case 'string-esc':
        this.state = c === 0x5c || c === 0x0a ? 'text' : c === ESC ? 'string-esc' : 'string'
        break
      case 'text':
        break
    }
    return this.state === 'text'
  }
}

/** The text with every control sequence removed (one string, no state kept). */
export function stripControls(text: string): string {
  return new ControlStripper().push(text)
}

/**
 * A JSON line whose strings keep their C1 and bidi controls as `\u` escapes: JSON.stringify
 * escapes only C0, and a terminal may act on a raw C1 character.
 */
export function jsonLine(value: unknown): string {
  const json = JSON.stringify(value)
  let out = ''
  let from = 0
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c === 0x7f || (c >= 0x80 && c <= 0x9f) || isBidiControl(c)) {
      out += `${json.slice(from, i)}\\u${c.toString(16).padStart(4, '0')}`
      from = i + 1
    }
  }
  return out + json.slice(from)
}

const originals = new WeakMap<object, NodeJS.WriteStream>()

/**
 * The stream with a `write` that strips control sequences (strings and bytes, in chunks);
 * everything else (isTTY, columns, events) is the stream's own.
 */
export function guardStream(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const stripper = new ControlStripper()
  const decoder = new StringDecoder('utf8')
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          : String(chunk)
    const cb = rest.find((r) => typeof r === 'function') as ((e?: Error | null) => void) | undefined
    return stream.write(stripper.push(text), cb)
  }
  const guarded = new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write
      const v: unknown = Reflect.get(target, prop, target)
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    },
  })
  originals.set(guarded, stream)
  return guarded
}

/** The stream underneath a guard (the stream itself when it has none). */
export function unguarded(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return originals.get(stream) ?? stream
}

/** Writes the CLI's own text (its escape sequences included) past the guard. */
export function writeOwn(stream: NodeJS.WriteStream, text: string): void {
  unguarded(stream).write(text)
}
