/**
 * One line of changing state on stderr (what the microphone hears): on a terminal it is
 * rewritten in place; elsewhere each new state is a line of its own. The text comes from a
 * server, so it is stripped of control sequences; the line's own moves go out past the guard.
 */
import { stripControls, writeOwn } from '../terminal-text'

export class StatusLine {
  private shown = ''

  constructor(private readonly stderr: NodeJS.WriteStream) {}

  show(text: string): void {
    const flat = stripControls(text).replace(/\s+/g, ' ').trim()
    if (flat === this.shown) return
    this.shown = flat
    if (!this.stderr.isTTY) {
      if (flat) this.stderr.write(`hearing: ${flat}\n`)
      return
    }
    const room = Math.max(10, (this.stderr.columns || 80) - 12)
    const fitted = flat.length > room ? `…${flat.slice(-room)}` : flat
    writeOwn(this.stderr, '\r\x1b[K')
    if (fitted) this.stderr.write(`hearing: ${fitted}`)
  }

  clear(): void {
    this.show('')
  }
}
