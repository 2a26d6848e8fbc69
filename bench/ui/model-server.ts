/** Starts `token-server.ts` in its own process and talks to its `/bench` endpoints. */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { ServerState, StreamPlan, StreamRecord } from './token-server'

export interface ModelServer {
  /** http://127.0.0.1:<port>/v1 */
  baseURL: string
  plan(p: StreamPlan): Promise<void>
  state(): Promise<ServerState>
  /** the record of the stream that wrote `final` (waits for it to finish) */
  finished(final: string, timeoutMs?: number): Promise<StreamRecord>
  stop(): void
}

export async function startModelServer(): Promise<ModelServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'token-server.ts')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))
    child.once('exit', (code) => reject(new Error(`token server exited with ${code}`)))
  })
  const origin = `http://127.0.0.1:${port}`
  const state = async (): Promise<ServerState> =>
    (await (await fetch(`${origin}/bench/state`)).json()) as ServerState
  return {
    baseURL: `${origin}/v1`,
    async plan(p) {
      const r = await fetch(`${origin}/bench/plan`, { method: 'POST', body: JSON.stringify(p) })
      if (!r.ok) throw new Error(`token server refused the plan: ${r.status}`)
    },
    state,
    async finished(final, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs
      while (Date.now() < until) {
        const s = await state()
        if (s.last?.final === final && s.last.finalWrittenAt !== null) return s.last
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`the stream ending with ${final} did not finish`)
    },
    stop: () => void child.kill(),
  }
}
