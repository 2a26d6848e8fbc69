/**
 * Cairn's side of the local model runtime: starts its process on demand (through the host's
 * launcher: Electron's utility process, or a Node child process), hands it a per-run secret,
 * waits for its port, and starts it again when it has died. A turn on the `local` provider
 * asks `ensure()` for the address; an answer cut because the process died is said as such.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { LlmError } from '../../core/llm/types'

/** How the process was told to end, or why it ended, for the error that follows. */
export interface RuntimeExit {
  code: number | null
  signal: string | null
}

/** One started runtime process, whatever started it. */
export interface RuntimeProcess {
  readonly pid: number | undefined
  send(message: unknown): void
  onMessage(fn: (message: unknown) => void): void
  onExit(fn: (exit: RuntimeExit) => void): void
  /** ends it (default SIGKILL; SIGTERM lets it unload its model first) */
  kill(signal?: 'SIGTERM' | 'SIGKILL'): void
}

export type RuntimeLauncher = () => RuntimeProcess

export interface RuntimeSettings {
  dataDir: string
  idleMs: number
  threads: number
  maxContext: number
}

export interface RuntimeAddress {
  baseURL: string
  apiKey: string
  /** which start of the process this is (a new one after each death) */
  generation: number
}

/** how long the runtime may take to start (loading node-llama-cpp, not a model) */
const START_TIMEOUT_MS = 30_000

interface Running {
  proc: RuntimeProcess
  ready: Promise<RuntimeAddress>
  generation: number
}

export class LocalRuntime {
  private running: Running | null = null
  private generation = 0
  private lastExit: RuntimeExit | null = null

  constructor(
    private readonly launch: RuntimeLauncher | null,
    private readonly settings: () => RuntimeSettings,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  get available(): boolean {
    return this.launch !== null
  }

  /** The running process's pid (for tests and the CLI's diagnostics), or null. */
  get pid(): number | null {
    return this.running?.proc.pid ?? null
  }

  /** Whether `generation` is still the running process. */
  alive(generation: number): boolean {
    return this.running?.generation === generation
  }

  /** Whether `generation` has ended, waiting up to `ms` for its exit to be seen. */
  async exited(generation: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms
    while (this.alive(generation) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25))
    }
    return !this.alive(generation)
  }

  /** How the last process ended, or null. */
  exit(): RuntimeExit | null {
    return this.lastExit
  }

  /** The runtime's address, starting the process when none runs. */
  ensure(): Promise<RuntimeAddress> {
    if (!this.launch) {
      return Promise.reject(
        new Error('This host cannot run local models (it has no runtime to start).'),
      )
    }
    if (!this.running) this.running = this.start(this.launch)
    return this.running.ready
  }

  private start(launch: RuntimeLauncher): Running {
    const generation = ++this.generation
    const secret = randomBytes(32).toString('hex')
    const proc = launch()
    const running: Running = { proc, generation, ready: Promise.resolve(null as never) }
    running.ready = new Promise<RuntimeAddress>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(`The local model runtime did not start within ${START_TIMEOUT_MS / 1000} s.`),
        )
        proc.kill()
      }, START_TIMEOUT_MS)
      timer.unref?.()
      proc.onMessage((m) => {
        const msg = m as { type?: string; port?: unknown; message?: unknown; line?: unknown }
        if (msg.type === 'log' && typeof msg.line === 'string') this.log(msg.line)
        else if (msg.type === 'ready' && typeof msg.port === 'number') {
          clearTimeout(timer)
          resolve({ baseURL: `http://127.0.0.1:${msg.port}/v1`, apiKey: secret, generation })
        } else if (msg.type === 'failed') {
          clearTimeout(timer)
          reject(new Error(`The local model runtime could not start: ${String(msg.message)}`))
          proc.kill()
        }
      })
      proc.onExit((exit) => {
        clearTimeout(timer)
        this.lastExit = exit
        if (this.running === running) this.running = null
        reject(new Error(`The local model runtime ended as it started (${describeExit(exit)}).`))
      })
    })
    running.ready.catch(() => undefined)
    proc.send({ type: 'start', secret, ...this.settings() })
    return running
  }

  /** Asks the process to end, without waiting (a host that is closing). */
  stopNow(): void {
    const r = this.running
    this.running = null
    r?.proc.kill('SIGTERM')
  }

  /** Stops the process (when Cairn quits, or to apply new settings). */
  async stop(): Promise<void> {
    const r = this.running
    if (!r) return
    this.running = null
    const exited = new Promise<void>((resolve) => r.proc.onExit(() => resolve()))
    r.proc.send({ type: 'stop' })
    const timer = setTimeout(() => r.proc.kill(), 3_000)
    await exited
    clearTimeout(timer)
  }
}

export function describeExit(exit: RuntimeExit | null): string {
  if (!exit) return 'it is not running'
  if (exit.signal) return `it was ended by ${exit.signal}`
  return `it exited with code ${exit.code}`
}

/**
 * The error of a request that failed because the runtime process died under it: said
 * plainly, not retried (a restarted runtime would start the answer again from nothing),
 * what streamed kept.
 */
export function runtimeDiedError(err: unknown, exit: RuntimeExit | null): LlmError {
  const partial = err instanceof LlmError ? err.partial : undefined
  return new LlmError(
    'network',
    `Cairn's local model runtime stopped while answering (${describeExit(exit)}). ` +
      'Send again to start it again; if it keeps stopping, the model may be too large for this machine or damaged.',
    { retryable: false, cause: err, ...(partial ? { partial } : {}) },
  )
}

/** A launcher that forks a Node process running the runtime's script (browser mode, the CLI, tests). */
export function nodeRuntimeLauncher(script: string, execArgv: string[] = []): RuntimeLauncher {
  return () => {
    const child: ChildProcess = fork(script, [], {
      execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' },
    })
    let stderr = ''
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-4_000)
    })
    return {
      pid: child.pid,
      send: (m) => {
        if (child.connected) child.send(m as object)
      },
      onMessage: (fn) => void child.on('message', fn),
      onExit: (fn) =>
        void child.once('exit', (code, signal) => {
          fn({ code, signal: signal ?? null })
        }),
      kill: (signal = 'SIGKILL') => void child.kill(signal),
    }
  }
}
