import { createInterface, type Interface } from 'node:readline'
import type { ApprovalDecision } from '../../src-preload/contract/dto'
import type { ApprovalRequestEvent } from '../../src-preload/contract/events'
import type { Approver } from '../core/ports'
import { stripControls } from './terminal-text'

/**
 * Arguments longer than this are not put to the user (about a hundred pages): the call is
 * denied, and stderr says how to allow it another way.
 */
export const MAX_SHOWN_CHARS = 200_000

export function parseAnswer(answer: string): ApprovalDecision | null {
  const a = answer.trim().toLowerCase()
  if (a === 'y' || a === 'yes') return 'allow_once'
  if (a === 'a' || a === 'always') return 'allow_always'
  if (a === 'n' || a === 'no' || a === '') return 'deny'
  return null
}

/** What the prompt shows, whole: every character of the arguments, controls stripped. */
export function requestLines(req: ApprovalRequestEvent): string[] {
  const args = stripControls(JSON.stringify(req.arguments, null, 2))
  return [
    'Allow tool call?',
    `  tool:   ${stripControls(req.tool)}`,
    `  server: ${stripControls(req.server)}${req.trusted ? '' : ' (annotations not trusted)'}`,
    ...(req.description ? [`  about:  ${stripControls(req.description).replace(/\n/g, ' ')}`] : []),
    '  arguments:',
    ...args.split('\n').map((l) => `    ${l}`),
  ]
}

/** How many columns a code point takes (wide East Asian characters and emoji take two). */
function width(cp: number): number {
  const wide =
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    cp >= 0x20000
  return wide ? 2 : 1
}

/** Cuts lines into the rows a terminal `columns` wide shows, so pages can be counted. */
export function terminalRows(lines: readonly string[], columns: number): string[] {
  const max = Math.max(20, columns - 1)
  const rows: string[] = []
  for (const line of lines) {
    let row = ''
    let used = 0
    for (const ch of line) {
      const w = ch === '\t' ? 8 : width(ch.codePointAt(0)!)
      if (used + w > max) {
        rows.push(row)
        row = ''
        used = 0
      }
      row += ch
      used += w
    }
    rows.push(row)
  }
  return rows
}

export function ask(rl: Interface, prompt: string, signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    const onAbort = (): void => reject(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    rl.question(prompt, (a) => {
      signal.removeEventListener('abort', onAbort)
      resolve(a)
    })
  })
}

/**
 * Asks on the terminal: y (once), a (always) or n (deny, the default), after showing the
 * whole request. A request taller than the terminal is shown a page at a time, and the
 * question comes only after its last page (n on any page denies). Without a terminal to
 * read from and to show the call on (stdin or stderr redirected) there is nobody to ask:
 * the call is denied and stderr says how to allow tools.
 *
 * `output` must be the terminal itself (readline writes its own line editing there): what
 * it shows of the request goes through `stripControls` here, with or without `--raw`.
 */
export function terminalApprover(
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  onInterrupt: () => void,
): Approver {
  return {
    async request(req: ApprovalRequestEvent, signal: AbortSignal) {
      const name = stripControls(req.name)
      // the question needs a person at a terminal, and the call must be shown on one
      if (!input.isTTY || !output.isTTY) {
        output.write(
          `Denied ${name}: there is no terminal to ask for approval. ` +
            'Use --approve all, --approve read-only, or run cairn in a terminal.\n',
        )
        return { decision: 'deny', reason: 'nobody could be asked to approve it (no terminal)' }
      }
      const argsLength = JSON.stringify(req.arguments).length
      if (argsLength > MAX_SHOWN_CHARS) {
        output.write(
          `Denied ${name}: its arguments are ${argsLength} characters long, too long to show ` +
            'here in full, and a call is never allowed unseen. Use --approve all to allow it.\n',
        )
        return {
          decision: 'deny',
          reason: `its arguments (${argsLength} characters) are too long to show to the user`,
        }
      }
      const rows = terminalRows(requestLines(req), output.columns || 80)
      const pageRows = Math.max(5, (output.rows || 24) - 2)
      const rl = createInterface({ input, output, terminal: true })
      rl.on('SIGINT', onInterrupt)
      try {
        output.write('\n')
        for (let at = 0; ; at += pageRows) {
          const page = rows.slice(at, at + pageRows)
          output.write(`${page.join('\n')}\n`)
          if (at + pageRows >= rows.length) break
          const shownTo = at + page.length
          const more = await ask(
            rl,
            `-- rows ${at + 1}-${shownTo} of ${rows.length}: Enter shows more, n denies --`,
            signal,
          )
          const a = more.trim().toLowerCase()
          if (a === 'n' || a === 'no' || a === 'q') {
            return { decision: 'deny', reason: 'the user denied it while reading its arguments' }
          }
        }
        for (;;) {
          const decision = parseAnswer(
            await ask(rl, 'Allow? [y]es once / [a]lways / [N]o: ', signal),
          )
          if (decision) return { decision }
          output.write('Please answer y, a or n.\n')
        }
      } finally {
        rl.close()
      }
    },
  }
}
