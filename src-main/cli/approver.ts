import { createInterface } from 'node:readline'
import type { ApprovalDecision } from '../../src-preload/contract/dto'
import type { PermissionRequestEvent } from '../../src-preload/contract/events'
import type { Approver } from '../core/ports'

function showArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, null, 2)
  return text.length > 4000 ? `${text.slice(0, 4000)}\n… (${text.length} characters in all)` : text
}

export function parseAnswer(answer: string): ApprovalDecision | null {
  const a = answer.trim().toLowerCase()
  if (a === 'y' || a === 'yes') return 'allow_once'
  if (a === 'a' || a === 'always') return 'allow_always'
  if (a === 'n' || a === 'no' || a === '') return 'deny'
  return null
}

/**
 * Asks on the terminal: y (once), a (always) or n (deny, the default). Without a terminal
 * there is nobody to ask: the call is denied and stderr says how to allow tools.
 */
export function terminalApprover(
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  onInterrupt: () => void,
): Approver {
  return {
    async request(req: PermissionRequestEvent, signal: AbortSignal) {
      if (!input.isTTY) {
        output.write(
          `Denied ${req.name}: there is no terminal to ask for approval. ` +
            'Use --approve all, --approve read-only, or run cairn in a terminal.\n',
        )
        return { decision: 'deny', reason: 'nobody could be asked to approve it (no terminal)' }
      }
      output.write(
        `\nAllow tool call?\n  tool:   ${req.tool}\n  server: ${req.server}${req.trusted ? '' : ' (annotations not trusted)'}\n` +
          `  arguments:\n${showArguments(req.arguments).replace(/^/gm, '    ')}\n`,
      )
      const rl = createInterface({ input, output, terminal: true })
      rl.on('SIGINT', onInterrupt)
      try {
        for (;;) {
          const answer = await new Promise<string>((resolve, reject) => {
            const onAbort = (): void => reject(signal.reason as Error)
            signal.addEventListener('abort', onAbort, { once: true })
            rl.question('Allow? [y]es once / [a]lways / [N]o: ', (a) => {
              signal.removeEventListener('abort', onAbort)
              resolve(a)
            })
          })
          const decision = parseAnswer(answer)
          if (decision) return { decision }
          output.write('Please answer y, a or n.\n')
        }
      } finally {
        rl.close()
      }
    },
  }
}
