/**
 * The prompt of `cairn chat` on a terminal. A readline interface exists only while the
 * prompt waits for a line: while a turn runs there is none, so the approval and form
 * questions (which open their own on the same terminal) never share stdin with it, and
 * Ctrl-C reaches the process as SIGINT (it stops the turn).
 *
 * At the prompt, Ctrl-C clears what was typed; on an empty line it says how to leave, and a
 * second Ctrl-C in a row leaves. Ctrl-D on an empty line leaves. `wake()` ends a wait
 * early (a spoken sentence to send) and keeps what was typed for the next prompt;
 * `setStatus()` shows a line of state (what the microphone hears) in front of the prompt.
 * Lines that come together (pasted, or typed ahead) are each read in turn, none dropped.
 */
import { createInterface, type Interface } from 'node:readline'
import { stripControls } from '../terminal-text'

export type PromptInput = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'wake' }

const HISTORY = 500

/** one wait for a line: its interface, the lines read, and how it ends */
interface Wait {
  rl: Interface
  done: boolean
  /** the lines of the chunk read (a paste brings several) */
  lines: string[]
  /** Ctrl-D came in the same chunk, after those lines */
  closedAfter: boolean
  end(input: PromptInput): void
}

export class PromptLine {
  private readonly history: string[] = []
  private rl: Interface | null = null
  private finish: ((input: PromptInput) => void) | null = null
  private draft = ''
  /** what came with the line read (a paste: more lines, then maybe Ctrl-D): read next, in order */
  private readonly queued: PromptInput[] = []
  private status = ''
  private ctrlC = false
  private woken = false
  /** stdin ended while no prompt listened (Ctrl-D typed during a turn) */
  private inputEnded = false

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
    private readonly prompt: string = 'you> ',
  ) {
    input.once('end', () => (this.inputEnded = true))
  }

  /** waits for a line; `eof` when the user leaves (Ctrl-D, Ctrl-C twice) */
  read(): Promise<PromptInput> {
    const ready = this.readyInput()
    if (ready) return Promise.resolve(ready)
    return new Promise((resolve) => this.waitForLine(resolve))
  }

  /** what is there without waiting: a queued line, the end of input, or a wake-up */
  private readyInput(): PromptInput | null {
    const next = this.queued.shift()
    if (next) return next
    if (this.inputEnded || this.input.readableEnded) return { kind: 'eof' }
    if (this.woken) {
      this.woken = false
      return { kind: 'wake' }
    }
    return null
  }

  /** opens a readline interface for one line; it closes once the wait ends */
  private waitForLine(resolve: (input: PromptInput) => void): void {
    const rl = createInterface({
      input: this.input,
      output: this.output,
      terminal: true,
      history: [...this.history],
      historySize: HISTORY,
      removeHistoryDuplicates: true,
      prompt: this.promptText(),
    })
    this.rl = rl
    const wait: Wait = {
      rl,
      done: false,
      lines: [],
      closedAfter: false,
      end: (input) => {
        if (wait.done) return
        wait.done = true
        this.rl = null
        this.finish = null
        // what was typed after the last whole line stays for the next prompt
        this.draft = rl.line
        // leave the prompt's line for what comes next
        if (input.kind === 'wake' || this.draft) this.output.write('\r\x1b[K')
        rl.close()
        resolve(input)
      },
    }
    this.finish = wait.end
    rl.on('line', (line) => this.onLine(wait, line))
    rl.on('SIGINT', () => this.onCtrlC(wait))
    // Ctrl-D on an empty line, or the terminal going away
    rl.on('close', () => {
      if (wait.done) return
      this.output.write('\n')
      if (wait.lines.length > 0) wait.closedAfter = true
      else wait.end({ kind: 'eof' })
    })
    rl.prompt()
    if (this.draft) {
      rl.write(this.draft)
      this.draft = ''
    }
  }

  private onLine(wait: Wait, line: string): void {
    this.ctrlC = false
    if (line.trim() !== '') {
      this.history.unshift(line)
      this.history.length = Math.min(this.history.length, HISTORY)
    }
    // readline gives every line of one chunk of input at once, and drops those after
    // it is closed: the interface is closed once the whole chunk has been read
    if (wait.lines.push(line) > 1) return
    queueMicrotask(() => {
      const [first, ...rest] = wait.lines.map((text): PromptInput => ({ kind: 'line', text }))
      if (wait.done) return void this.queued.push(first!, ...rest)
      this.queued.push(...rest, ...(wait.closedAfter ? [{ kind: 'eof' } as const] : []))
      wait.end(first!)
    })
  }

  private onCtrlC(wait: Wait): void {
    const { rl } = wait
    if (rl.line !== '') {
      // like a shell: Ctrl-C drops what was typed
      this.ctrlC = false
      this.output.write('^C\n')
      rl.write(null, { ctrl: true, name: 'e' })
      rl.write(null, { ctrl: true, name: 'u' })
      rl.prompt()
      return
    }
    if (this.ctrlC) {
      this.output.write('\n')
      return wait.end({ kind: 'eof' })
    }
    this.ctrlC = true
    this.output.write('\n(To leave, press Ctrl-C again or Ctrl-D, or type /quit.)\n')
    rl.prompt()
  }

  /** ends the wait for a line now (what was typed stays for the next prompt) */
  wake(): void {
    if (this.finish) this.finish({ kind: 'wake' })
    else this.woken = true
  }

  /** puts text on the prompt's line, as if typed (a spoken sentence to edit) */
  insert(text: string): void {
    const flat = stripControls(text).replace(/\s+/g, ' ')
    if (this.rl) this.rl.write(flat)
    else this.draft += flat
  }

  /**
   * Writes lines (already safe to show) while the prompt may be waiting: above it, and the
   * prompt with what was typed is drawn again below them.
   */
  above(lines: string): void {
    if (!this.rl) return void this.output.write(lines)
    this.output.write(`\r\x1b[K${lines}`)
    this.rl.prompt(true)
  }

  /** a line of state before the prompt ('' removes it); `text` is stripped of controls */
  setStatus(text: string): void {
    const status = stripControls(text).replace(/\s+/g, ' ').trim()
    if (status === this.status) return
    this.status = status
    if (!this.rl) return
    this.rl.setPrompt(this.promptText())
    this.rl.prompt(true)
  }

  private promptText(): string {
    if (!this.status) return this.prompt
    const columns = this.output.columns || 80
    const room = Math.max(10, columns - this.prompt.length - 10)
    const shown = this.status.length > room ? `…${this.status.slice(-room)}` : this.status
    return `[${shown}] ${this.prompt}`
  }
}
