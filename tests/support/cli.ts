/** Runs the built CLI (`out/cli/index.js`) as a user would, in its own process. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startScriptedServer, type ScriptedServer } from './openai-server'

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
  /** the same for stderr */
  waitForStderr(text: string | RegExp, timeoutMs?: number): Promise<string>
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
  const seen = { stdout: '', stderr: '' }
  type Stream = keyof typeof seen
  const waiters: { stream: Stream; test: string | RegExp; resolve: (s: string) => void }[] = []
  const matches = (stream: Stream, test: string | RegExp): boolean =>
    typeof test === 'string' ? seen[stream].includes(test) : test.test(seen[stream])
  const listen = (stream: Stream) => (d: string) => {
    seen[stream] += d
    for (const w of [...waiters]) {
      if (w.stream === stream && matches(stream, w.test)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(seen[stream])
      }
    }
  }
  child.stdout!.setEncoding('utf8').on('data', listen('stdout'))
  child.stderr!.setEncoding('utf8').on('data', listen('stderr'))
  if (opts.input !== undefined) child.stdin!.end(opts.input)
  else child.stdin!.end()
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: seen.stdout, stderr: seen.stderr }),
    ),
  )
  // a safety net below the 30 s test timeout, so a stalled run says what it printed
  const waitFor = (stream: Stream, test: string | RegExp, timeoutMs = 25_000): Promise<string> =>
    new Promise((resolve, reject) => {
      if (matches(stream, test)) return resolve(seen[stream])
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out waiting for ${String(test)} on ${stream}; stdout: ${seen.stdout}; stderr: ${seen.stderr}`,
            ),
          ),
        timeoutMs,
      )
      waiters.push({
        stream,
        test,
        resolve: (s) => {
          clearTimeout(timer)
          resolve(s)
        },
      })
    })
  return {
    child,
    done,
    waitForStdout: (test, timeoutMs) => waitFor('stdout', test, timeoutMs),
    waitForStderr: (test, timeoutMs) => waitFor('stderr', test, timeoutMs),
  }
}

export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliResult> {
  return startCli(args, opts).done
}

export interface CliEnv {
  /** the scripted OpenAI-compatible server */
  server: ScriptedServer
  /** the temporary directory */
  dir: string
  /** CAIRN_DATA_DIR: `<dir>/data` */
  dataDir: string
  /** the environment to run the CLI in */
  env: NodeJS.ProcessEnv
  /** `<dir>/mcp.json`, written when `mcpServers` is given */
  configFile: string
  /** closes the server and removes the directory */
  stop(): Promise<void>
}

/** A scripted model, a temporary data directory and the environment to run the CLI against them. */
export async function startCliEnv(opts: {
  /** the temporary directory's name, e.g. `cairn-cli-mcp-` */
  prefix: string
  /** the scripted server's models (default: its own default) */
  models?: string[]
  /**
   * CAIRN_BASE_URL and CAIRN_MODEL (the first model) point at the server (default); false:
   * the test passes `--base-url` and `--model` itself
   */
  modelEnv?: boolean
  /** CAIRN_LOCAL_SERVERS at the discard port, so that no local server is found (default true) */
  noLocalServers?: boolean
  /** written to `configFile` as `mcpServers` */
  mcpServers?: Record<string, unknown>
  /** more variables */
  env?: NodeJS.ProcessEnv
}): Promise<CliEnv> {
  const { prefix, models, modelEnv = true, noLocalServers = true, mcpServers } = opts
  const server = await startScriptedServer(models ? { models } : {})
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const dataDir = join(dir, 'data')
  const env: NodeJS.ProcessEnv = {
    CAIRN_DATA_DIR: dataDir,
    ...(modelEnv ? { CAIRN_BASE_URL: server.baseURL, CAIRN_MODEL: models?.[0] ?? 'm' } : {}),
    ...(noLocalServers ? { CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' } : {}),
    ...opts.env,
  }
  const configFile = join(dir, 'mcp.json')
  if (mcpServers) writeFileSync(configFile, JSON.stringify({ mcpServers }))
  return {
    server,
    dir,
    dataDir,
    env,
    configFile,
    stop: async () => {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
