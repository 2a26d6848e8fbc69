import type { AgentEvent } from '../../src-preload/contract/events'
import { ControlStripper, jsonLine, stripControls, writeOwn } from './terminal-text'
import { TurnSummary } from './turn-summary'

export interface Streams {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
}

/** the text on one line, cut to `max` characters (the cut marked …) */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** `--json`: every event, one object per line, on stdout; nothing else goes there. */
export function jsonRenderer(streams: Streams): (e: AgentEvent) => void {
  return (e) => {
    streams.stdout.write(`${jsonLine(e)}\n`)
  }
}

/**
 * Plain output: the answer on stdout, everything else (reasoning, tools, retries, notices,
 * errors) on stderr. When a retry discards a partial answer, a terminal erases it so no
 * text is shown twice; a pipe cannot take text back, so stderr says what to drop.
 *
 * Everything that comes from the model, a tool or a server has its control sequences
 * stripped (unless `raw`); the renderer's own sequences go out with `writeOwn`.
 */
export class TextRenderer {
  private partial = ''
  private column = 0
  private partialStartColumn = 0
  private lastChar = '\n'
  private inReasoning = false
  private readonly names = new Map<string, string>()
  /** per running tool call, the tenth of its total last shown (progress on a terminal) */
  private readonly shownProgress = new Map<string, number>()
  private readonly summary = new TurnSummary()
  // a sequence left open at the end of a message or an attempt does not reach into the next
  private answer = new ControlStripper()
  private reasoning = new ControlStripper()
  private readonly clean: (text: string) => string

  constructor(
    private readonly s: Streams,
    private readonly opts: { raw?: boolean } = {},
  ) {
    this.clean = opts.raw ? (t) => t : stripControls
  }

  /** text from the model, a tool or a server, as it may be shown */
  private untrusted(stripper: ControlStripper, text: string): string {
    return this.opts.raw ? text : stripper.push(text)
  }

  private get tty(): boolean {
    return this.s.stdout.isTTY === true
  }

  private out(text: string): void {
    if (this.partial === '') this.partialStartColumn = this.column
    this.partial += text
    this.s.stdout.write(text)
    for (const ch of text) {
      this.column = ch === '\n' ? 0 : this.column + 1
    }
    this.lastChar = text[text.length - 1] ?? this.lastChar
  }

  /** A line of the renderer's own on stderr (untrusted parts already cleaned), dim if asked. */
  private err(line: string, dimmed = false): void {
    this.endReasoning()
    if (this.lastChar !== '\n' && this.s.stdout.isTTY && this.s.stderr.isTTY) {
      this.s.stdout.write('\n')
      this.lastChar = '\n'
      this.column = 0
    }
    if (dimmed && this.s.stderr.isTTY) writeOwn(this.s.stderr, '\x1b[2m')
    this.s.stderr.write(line)
    if (dimmed && this.s.stderr.isTTY) writeOwn(this.s.stderr, '\x1b[22m')
    this.s.stderr.write('\n')
  }

  private endReasoning(): void {
    if (this.inReasoning) {
      this.s.stderr.write('\n')
      this.inReasoning = false
    }
  }

  handle = (e: AgentEvent): void => {
    switch (e.type) {
      case 'text_delta': {
        this.endReasoning()
        const text = this.untrusted(this.answer, e.text)
        if (text) this.out(text)
        break
      }
      case 'reasoning_delta':
        this.showReasoning(e.text)
        break
      case 'message_saved':
        this.partial = ''
        this.answer = new ControlStripper()
        this.reasoning = new ControlStripper()
        break
      case 'tool_call':
        this.names.set(e.id, this.clean(e.name))
        this.err(`→ ${this.clean(e.name)} ${oneLine(this.clean(e.rawArguments || '{}'), 200)}`)
        break
      case 'permission_decision':
        if (e.by !== 'user') {
          const by = e.by === 'rule' ? 'a remembered "always allow" rule' : 'the permission policy'
          this.err(`  ${e.decision === 'deny' ? 'denied' : 'allowed'} by ${by}`, true)
        }
        break
      case 'tool_progress':
        this.showProgress(e)
        break
      case 'elicitation_resolved':
        if (e.action !== 'accept')
          this.err(`  the question was ${e.action === 'decline' ? 'declined' : 'cancelled'}`, true)
        break
      case 'tool_result': {
        const name = this.names.get(e.id) ?? 'tool'
        const mark = e.ok ? '✓' : '✗'
        const kind = e.failureKind ? ` [${e.failureKind}]` : ''
        this.err(`${mark} ${name}${kind} (${e.durationMs} ms): ${oneLine(this.clean(e.content))}`)
        break
      }
      case 'retry':
        this.showRetry(e)
        break
      case 'loop_warning':
        this.err(
          `Warning: ${this.clean(e.name)} was called with the same arguments ${e.count} times; the model was told.`,
        )
        break
      case 'notice':
        this.err(`${e.level === 'warning' ? 'Warning' : 'Note'}: ${this.clean(e.message)}`)
        break
      case 'usage':
        this.summary.add(e)
        break
      case 'turn_end':
        this.showEnd(e)
        break
      default:
        break
    }
  }

  /** the model's reasoning, dimmed, on a terminal only */
  private showReasoning(text: string): void {
    if (!this.s.stderr.isTTY) return
    this.inReasoning = true
    writeOwn(this.s.stderr, '\x1b[2m')
    this.s.stderr.write(this.untrusted(this.reasoning, text))
    writeOwn(this.s.stderr, '\x1b[22m')
  }

  /** a tool's progress: on a terminal only, and at most once per tenth of the total */
  private showProgress(e: Extract<AgentEvent, { type: 'tool_progress' }>): void {
    if (!this.s.stderr.isTTY) return
    const step = e.total ? Math.floor((10 * e.progress) / e.total) : e.progress
    if (this.shownProgress.get(e.id) === step) return
    this.shownProgress.set(e.id, step)
    const count = e.total ? `${e.progress} of ${e.total}` : `${e.progress} so far`
    const said = e.message ? `: ${oneLine(this.clean(e.message), 200)}` : ''
    this.err(`  … ${this.names.get(e.id) ?? 'tool'} ${count}${said}`, true)
  }

  /** a retry: what the failed attempt printed is taken back, and the wait is said */
  private showRetry(e: Extract<AgentEvent, { type: 'retry' }>): void {
    if (e.discardPartial && this.partial !== '') this.discardPartial()
    if (e.discardPartial) {
      this.answer = new ControlStripper()
      this.reasoning = new ControlStripper()
    }
    this.err(
      `Retrying (attempt ${e.attempt} of ${e.maxAttempts}) in ${(e.delayMs / 1000).toFixed(1)} s: ${this.clean(e.reason)}`,
    )
  }

  /** the end of the turn: the answer's last line closed, why it stopped, what it used */
  private showEnd(e: Extract<AgentEvent, { type: 'turn_end' }>): void {
    this.endReasoning()
    if (this.lastChar !== '\n') {
      this.s.stdout.write('\n')
      this.lastChar = '\n'
    }
    if (e.error) this.s.stderr.write(`Error: ${this.clean(e.error.message)}\n`)
    else if (e.reason !== 'completed' && e.reason !== 'aborted') {
      this.s.stderr.write(`Stopped: ${stopWords[e.reason] ?? e.reason}.\n`)
    }
    if (e.discardedSession) this.err('Nothing was answered, so no session was kept.', true)
    const line = this.summary.line()
    if (line) this.err(line, true)
  }

  private discardPartial(): void {
    if (this.tty) {
      const cols = this.s.stdout.columns || 80
      let col = this.partialStartColumn
      let rows = 0
      for (const ch of this.partial) {
        if (ch === '\n') {
          rows++
          col = 0
        } else if (++col >= cols) {
          rows++
          col = 0
        }
      }
      const up = rows > 0 ? `\x1b[${rows}A` : ''
      writeOwn(this.s.stdout, `${up}\x1b[${this.partialStartColumn + 1}G\x1b[J`)
      this.column = this.partialStartColumn
    } else {
      this.s.stdout.write('\n')
      this.column = 0
      this.s.stderr.write(
        `(the connection dropped: the ${this.partial.length} characters of the answer printed just now are discarded; it starts again)\n`,
      )
    }
    this.partial = ''
    this.lastChar = this.column === 0 ? '\n' : ' '
  }
}

const stopWords: Partial<Record<string, string>> = {
  max_iterations: 'the limit of LLM calls for one turn was reached (--max-iterations)',
  max_tool_executions: 'the limit of tool executions for one turn was reached',
  deadline: 'the turn ran out of time (--deadline-ms)',
  loop: 'the model kept repeating the same tool call',
  tool_failure: 'a tool failed and the stop-on-failure policy is on',
  denied: 'a tool call was denied and the stop-on-denial policy is on',
}
