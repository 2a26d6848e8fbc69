/**
 * Runs the built CLI on a real pseudo-terminal: util-linux `script` gives the child a
 * terminal (stdin, stdout and stderr are its slave side) and copies what it shows to our
 * pipe; what we write goes to the terminal as typed keys (so "\x03" is Ctrl-C, "\x04"
 * Ctrl-D, "\r" Enter).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { CLI } from './cli'

const ESC = String.fromCharCode(27)
const CSI = new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g')
const ERASED = new RegExp(`[^\\n]*(\\r${ESC}\\[K|${ESC}\\[1G${ESC}\\[0J)`, 'g')

export interface TerminalCli {
  child: ChildProcess
  /** what the terminal showed so far, its cursor moves and line clearing removed */
  text(): string
  /** types on the terminal */
  type(keys: string): void
  /** resolves once `test` appears in what was shown after character `from` of `text()` */
  waitFor(test: string | RegExp, from?: number, timeoutMs?: number): Promise<string>
  /** how many times `part` was shown */
  count(part: string): number
  done: Promise<{ code: number | null; text: string }>
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

export function startCliOnTerminal(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv } = {},
): TerminalCli {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    TERM: 'xterm',
    SHELL: '/bin/sh',
    ...opts.env,
  }
  // exec: no shell stays between the terminal and the CLI (it would take Ctrl-C too)
  const command = `exec ${[process.execPath, CLI, ...args].map(quote).join(' ')}`
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let raw = ''
  const waiters = new Set<() => void>()
  const onData = (d: string): void => {
    raw += d
    for (const w of [...waiters]) w()
  }
  child.stdout!.setEncoding('utf8').on('data', onData)
  child.stderr!.setEncoding('utf8').on('data', onData)
  // a line erased in place (`\r` then erase-to-end, or readline's redraw: column 1 then
  // erase-below) is dropped, as it vanishes from the screen
  const text = (): string => raw.replace(ERASED, '').replace(CSI, '').replace(/\r/g, '')
  const done = new Promise<{ code: number | null; text: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, text: text() })),
  )
  return {
    child,
    text,
    type: (keys) => void child.stdin!.write(keys),
    count: (part) => text().split(part).length - 1,
    done,
    waitFor(test, from = 0, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const shown = text().slice(from)
          if (typeof test === 'string' ? shown.includes(test) : test.test(shown)) {
            waiters.delete(check)
            clearTimeout(timer)
            resolve(text())
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(`timed out waiting for ${String(test)}; the terminal showed:\n${text()}`),
          )
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
  }
}
