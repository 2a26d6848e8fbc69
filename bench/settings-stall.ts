/**
 * `npm run bench:settings`: how long the event loop stalls while a turn streams and the
 * settings are saved at the same time, with another process holding the settings lock for
 * 40 ms out of every 80 (the desktop app, browser mode and the CLI share the file). Compares
 * `update()` (waits for the lock asynchronously, writes asynchronously) with `updateSync()`
 * (the CLI's way). Target: no stall above 50 ms with `update()`. A benchmark, not a test:
 * it reports, and exits non-zero only if something failed to run.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { openSettings } from '../src-main/adapters/settings/settings-store'
import type { SettingsStore } from '../src-main/core/service-ports'
import { createSessionStore } from '../src-main/adapters/sqlite/session-store'
import { DEFAULT_LIMITS } from '../src-main/core/agent/limits'
import { runTurn } from '../src-main/core/agent/turn-runner'
import { systemClock } from '../src-main/core/clock'
import { LlmClient } from '../src-main/core/llm/client'

/** a stream at a model's pace: TOKENS tokens, one every PACE_MS */
const TOKENS = 600
const PACE_MS = 5

/** An OpenAI-compatible server in this process that streams at PACE_MS per token. */
async function pacedServer(): Promise<{ baseURL: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume()
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const base = { id: 'b', object: 'chat.completion.chunk', created: 0, model: 'bench' }
    const chunk = (delta: object, finish: string | null = null): string =>
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    let i = 0
    const timer = setInterval(() => {
      if (i < TOKENS) {
        res.write(chunk({ content: `tok${i++} ` }))
        return
      }
      clearInterval(timer)
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`)
    }, PACE_MS)
    res.on('close', () => clearInterval(timer))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

function spawnReady(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const first = new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)))
  })
  return { child, first }
}

async function streamTurn(dir: string, baseURL: string): Promise<void> {
  const store = createSessionStore(dir)
  const session = store.createSession({ provider: baseURL, model: 'bench' })
  const outcome = await runTurn(
    {
      store,
      tools: { listTools: () => [], callTool: () => Promise.reject(new Error('none')) },
      approver: { request: async () => ({ decision: 'deny' }) },
      rules: { isAlwaysAllowed: () => false, rememberAlwaysAllow: () => {} },
      clock: systemClock,
      llm: {
        client: new LlmClient({ baseURL }, { fetch }),
        baseURL,
        provider: baseURL,
        model: 'bench',
      },
    },
    {
      sessionId: session.id,
      turnId: `bench-${Date.now()}`,
      text: 'go',
      policy: 'deny-all',
      limits: DEFAULT_LIMITS,
      systemPrompt: null,
      emit: () => {},
    },
  )
  store.close()
  if (outcome.reason !== 'completed') throw new Error(`bench turn ended with ${outcome.reason}`)
}

type Mode = 'turn only' | 'update()' | 'updateSync()'

async function scenario(
  mode: Mode,
  baseURL: string,
  settings: SettingsStore,
  dir: string,
): Promise<{ maxMs: number; p99Ms: number; saves: number }> {
  const monitor = monitorEventLoopDelay({ resolution: 5 })
  monitor.enable()
  let running = true
  let saves = 0
  const saving = (async () => {
    if (mode === 'turn only') return
    while (running) {
      const change = (s: { systemPrompt: string | null }): void => {
        s.systemPrompt = `saved ${saves}`
      }
      try {
        if (mode === 'update()') await settings.update(change)
        else settings.updateSync(change)
        saves++
      } catch {
        // a lock timeout counts as a stall already measured
      }
      await new Promise((r) => setTimeout(r, 10))
    }
  })()
  await streamTurn(dir, baseURL)
  running = false
  await saving
  monitor.disable()
  return { maxMs: monitor.max / 1e6, p99Ms: monitor.percentile(99) / 1e6, saves }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-settings-'))
  const server = await pacedServer()
  const baseURL = server.baseURL
  const settings = openSettings(dir)
  const holder = spawnReady([
    join(import.meta.dirname, 'settings-lock-holder.ts'),
    `${settings.path}.lock`,
  ])
  await holder.first
  try {
    console.log(
      'Settings saves during a streamed turn, another process holding the lock 40 ms of every 80',
    )
    console.log(
      `node ${process.version}, ${process.platform}/${process.arch}; ${TOKENS} tokens streamed per turn, one every ${PACE_MS} ms\n`,
    )
    for (const mode of ['turn only', 'update()', 'updateSync()'] as const) {
      const r = await scenario(mode, baseURL, settings, dir)
      const target =
        mode === 'update()' ? `   target ≤ 50 ms   ${r.maxMs <= 50 ? 'PASS' : 'MISS'}` : ''
      console.log(
        `   ${mode.padEnd(13)} longest stall ${r.maxMs.toFixed(1).padStart(6)} ms   p99 ${r.p99Ms.toFixed(1).padStart(5)} ms   saves ${String(r.saves).padStart(3)}${target}`,
      )
    }
  } finally {
    holder.child.kill()
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
