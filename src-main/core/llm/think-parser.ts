/**
 * Splits `<think>…</think>` reasoning out of streamed content (Qwen, DeepSeek R1 and others
 * served through Ollama / llama.cpp put it inline). Incremental: every piece is looked at once,
 * tags may be split across pieces (`<thi` + `nk>`), and a `<think>` only counts at the very
 * start of the content (after optional whitespace); text that mentions the tag later is content.
 */

export interface ThinkSink {
  text(s: string): void
  reasoning(s: string): void
}

const OPEN = '<think>'
const CLOSE = '</think>'

/** not yet known whether the content starts with `<think>` (buffering) */
const START = 0
/** plain content from here on */
const CONTENT = 1
/** inside the think block, skipping whitespace right after `<think>` */
const REASONING_LEAD = 2
/** inside the think block */
const REASONING = 3
/** right after `</think>`, skipping whitespace before the answer */
const AFTER_CLOSE = 4
type State =
  typeof START | typeof CONTENT | typeof REASONING_LEAD | typeof REASONING | typeof AFTER_CLOSE

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9
}

function skipSpace(s: string): number {
  let i = 0
  while (i < s.length && isSpace(s.charCodeAt(i))) i++
  return i
}

export class ThinkTagParser {
  private state: State = START
  /** content buffered in `Start`, or a possible partial `</think>` held back in `Reasoning` */
  private held = ''
  /** whether a think block was found */
  sawThink = false

  constructor(private readonly sink: ThinkSink) {}

  push(piece: string): void {
    switch (this.state) {
      case CONTENT:
        this.sink.text(piece)
        return
      case START:
        this.start(piece)
        return
      case REASONING_LEAD:
        this.reasoningLead(piece)
        return
      case REASONING:
        this.reasoning(piece)
        return
      case AFTER_CLOSE:
        this.afterClose(piece)
        return
    }
  }

  /** The stream ended: whatever is held back goes out as what it most likely is. */
  flush(): void {
    const held = this.held
    this.held = ''
    if (held === '') return
    if (this.state === START) this.sink.text(held)
    else if (this.state === REASONING) this.sink.reasoning(held)
  }

  private start(piece: string): void {
    const buf = this.held + piece
    const lead = skipSpace(buf)
    const rest = buf.length - lead
    if (rest === 0) {
      this.held = buf
      return
    }
    if (rest < OPEN.length) {
      if (OPEN.startsWith(buf.slice(lead))) {
        this.held = buf
        return
      }
    } else if (buf.startsWith(OPEN, lead)) {
      this.held = ''
      this.sawThink = true
      this.state = REASONING_LEAD
      const after = buf.slice(lead + OPEN.length)
      if (after !== '') this.reasoningLead(after)
      return
    }
    this.held = ''
    this.state = CONTENT
    this.sink.text(buf)
  }

  private reasoningLead(piece: string): void {
    const i = skipSpace(piece)
    if (i === piece.length) return
    this.state = REASONING
    this.reasoning(i === 0 ? piece : piece.slice(i))
  }

  private reasoning(piece: string): void {
    const buf = this.held === '' ? piece : this.held + piece
    const close = buf.indexOf(CLOSE)
    if (close >= 0) {
      this.held = ''
      if (close > 0) this.sink.reasoning(buf.slice(0, close))
      this.state = AFTER_CLOSE
      const after = buf.slice(close + CLOSE.length)
      if (after !== '') this.afterClose(after)
      return
    }
    // hold back a tail that could be the start of `</think>` (it can only start at the last '<')
    let keep = 0
    const lt = buf.lastIndexOf('<')
    if (lt >= 0 && buf.length - lt < CLOSE.length && CLOSE.startsWith(buf.slice(lt))) {
      keep = buf.length - lt
    }
    if (keep === 0) {
      this.held = ''
      this.sink.reasoning(buf)
    } else {
      this.held = buf.slice(buf.length - keep)
      if (buf.length > keep) this.sink.reasoning(buf.slice(0, buf.length - keep))
    }
  }

  private afterClose(piece: string): void {
    const i = skipSpace(piece)
    if (i === piece.length) return
    this.state = CONTENT
    this.sink.text(i === 0 ? piece : piece.slice(i))
  }
}
