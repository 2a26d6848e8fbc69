/**
 * The local model runtime's process: started by Cairn (Electron's utility process in the
 * desktop app, a child process of browser mode and the CLI), it waits for its configuration
 * on the parent's channel, serves the OpenAI-compatible endpoint on 127.0.0.1 and says its
 * port back. It ends when the parent says so, when the parent's channel closes, or on SIGTERM.
 * A model that crashes llama.cpp takes this process down, never Cairn's.
 */
import { z } from 'zod'
import { ModelIndex } from '../adapters/local-models/model-index'
import { LocalEngine } from './engine'
import { startRuntimeServer } from './server'

const config = z.object({
  type: z.literal('start'),
  secret: z.string().min(32),
  dataDir: z.string().min(1),
  idleMs: z.number().int().positive(),
  threads: z.number().int().nonnegative(),
  maxContext: z.number().int().positive(),
})

export type RuntimeConfig = z.infer<typeof config>
export type RuntimeMessage =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string }
  | { type: 'log'; line: string }

interface Channel {
  send(m: RuntimeMessage): void
  onMessage(fn: (m: unknown) => void): void
  onClose(fn: () => void): void
}

/** Electron's utility process's side of its channel to the main process */
interface ParentPort {
  postMessage(message: unknown): void
  on(event: 'message', fn: (e: { data: unknown }) => void): void
}

/** Electron's utility process has `process.parentPort`; a Node child process has IPC. */
function parentChannel(): Channel {
  const port = (process as { parentPort?: ParentPort }).parentPort
  if (port) {
    return {
      send: (m) => port.postMessage(m),
      onMessage: (fn) => port.on('message', (e) => fn(e.data)),
      // the utility process is ended by its parent (kill()) or dies with it
      onClose: () => undefined,
    }
  }
  if (!process.send) throw new Error('The local runtime must be started by Cairn.')
  return {
    send: (m) => process.send?.(m),
    onMessage: (fn) => process.on('message', fn),
    onClose: (fn) => process.on('disconnect', fn),
  }
}

function main(): void {
  // nothing here downloads or builds llama.cpp: only the prebuilt binary is used
  process.env['NODE_LLAMA_CPP_SKIP_DOWNLOAD'] = 'true'
  const channel = parentChannel()
  let stopping = false
  let stop: () => Promise<void> = async () => undefined
  const end = (): void => {
    if (stopping) return
    stopping = true
    void stop().finally(() => process.exit(0))
  }
  channel.onClose(end)
  process.on('SIGTERM', end)
  channel.onMessage((raw) => {
    if ((raw as { type?: unknown })?.type === 'stop') return end()
    const parsed = config.safeParse(raw)
    if (!parsed.success) return
    const c = parsed.data
    const engine = new LocalEngine({
      idleMs: c.idleMs,
      threads: c.threads,
      maxContext: c.maxContext,
      log: (line) => channel.send({ type: 'log', line }),
    })
    startRuntimeServer({
      secret: c.secret,
      index: new ModelIndex(c.dataDir),
      engine,
      maxContext: c.maxContext,
    }).then(
      ({ server, port }) => {
        stop = async () => {
          server.close()
          server.closeAllConnections()
          await engine.close()
        }
        channel.send({ type: 'ready', port })
      },
      (e: unknown) => channel.send({ type: 'failed', message: (e as Error).message }),
    )
  })
}

main()
