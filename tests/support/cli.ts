/** Runs the built CLI (`out/cli/index.js`) as a user would, in its own process. */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

export const CLI = join(process.cwd(), 'out', 'cli', 'index.js')

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface RunningCli {
  child: ChildProcess
  /** resolves with the stdout seen so far once it contains `text` */
  waitForStdout(text: string | RegExp, timeoutMs?: number): Promise<string>
  done: Promise<CliResult>
}

export function startCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string } = {},
): RunningCli {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    ...opts.env,
  }
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const waiters: { test: string | RegExp; resolve: (s: string) => void }[] = []
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
    for (const w of [...waiters]) {
      if (typeof w.test === 'string' ? stdout.includes(w.test) : w.test.test(stdout)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(stdout)
      }
    }
  })
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  if (opts.input !== undefined) child.stdin!.end(opts.input)
  else child.stdin!.end()
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  )
  return {
    child,
    done,
    waitForStdout(test, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        if (typeof test === 'string' ? stdout.includes(test) : test.test(stdout))
          return resolve(stdout)
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `timed out waiting for ${String(test)}; stdout: ${stdout}; stderr: ${stderr}`,
              ),
            ),
          timeoutMs,
        )
        waiters.push({
          test,
          resolve: (s) => {
            clearTimeout(timer)
            resolve(s)
          },
        })
      })
    },
  }
}

export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliResult> {
  return startCli(args, opts).done
}
