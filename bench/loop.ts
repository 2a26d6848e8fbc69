/**
 * The cost of the whole loop per token: CPU time to stream TOKENS tokens through
 * runTurn (normalization, events, SQLite persistence, turn log) against a bare `openai`
 * SDK `for await` loop over the same stream. The server runs in another process.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { createSessionStore } from '../src-main/adapters/sqlite/session-store'
import { FileTurnLogger } from '../src-main/adapters/logs/turn-log'
import { DEFAULT_LIMITS } from '../src-main/core/agent/limits'
import { runTurn } from '../src-main/core/agent/turn-runner'
import { systemClock } from '../src-main/core/clock'
import { LlmClient } from '../src-main/core/llm/client'
import type { AgentEvent } from '../src-preload/contract/events'

export interface LoopBenchResult {
  tokens: number
  bareCpuMs: number
  loopCpuMs: number
  ratio: number
  dbWritesPerTurn: number
  messagesPerTurn: number
  textDeltaEvents: number
}

async function startServer(tokens: number): Promise<{ baseURL: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'stream-server.ts')],
    {
      env: { ...process.env, BENCH_TOKENS: String(tokens) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
  })
  return { baseURL: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() }
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start)
  return (d.user + d.system) / 1000
}

async function bare(baseURL: string): Promise<number> {
  const client = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0 })
  const start = process.cpuUsage()
  const stream = await client.chat.completions.create({
    model: 'bench',
    messages: [{ role: 'user', content: 'go' }],
    stream: true,
    stream_options: { include_usage: true },
  })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
  if (text.length === 0) throw new Error('bare loop got no text')
  return cpuMs(start)
}

async function full(
  baseURL: string,
  dir: string,
): Promise<{ cpu: number; writes: number; messages: number; deltas: number }> {
  const store = createSessionStore(dir)
  const logger = new FileTurnLogger(dir)
  const session = store.createSession({ provider: baseURL, model: 'bench' })
  let deltas = 0
  const emit = (e: AgentEvent): void => {
    if (e.type === 'text_delta') deltas++
  }
  const writesBefore = store.writeCount
  const start = process.cpuUsage()
  const outcome = await runTurn(
    {
      store,
      tools: { listTools: () => [], callTool: () => Promise.reject(new Error('none')) },
      approver: { request: async () => ({ decision: 'deny' }) },
      rules: { isAlwaysAllowed: () => false, rememberAlwaysAllow: () => {} },
      clock: systemClock,
      logger,
      llm: {
        client: new LlmClient({ baseURL }, { fetch }),
        baseURL,
        provider: baseURL,
        model: 'bench',
      },
    },
    {
      sessionId: session.id,
      turnId: 'bench',
      text: 'go',
      policy: 'deny-all',
      limits: DEFAULT_LIMITS,
      systemPrompt: null,
      emit,
    },
  )
  const cpu = cpuMs(start)
  if (outcome.reason !== 'completed') throw new Error(`bench turn ended with ${outcome.reason}`)
  const writes = store.writeCount - writesBefore
  const messages = store.listMessages(session.id).length
  store.close()
  return { cpu, writes, messages, deltas }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

export async function benchLoop(tokens = 20_000, rounds = 7): Promise<LoopBenchResult> {
  const server = await startServer(tokens)
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-loop-'))
  try {
    // warm up both paths (JIT, connection setup)
    await bare(server.baseURL)
    await full(server.baseURL, dir)
    const bareTimes: number[] = []
    const loopTimes: number[] = []
    let last = { cpu: 0, writes: 0, messages: 0, deltas: 0 }
    for (let i = 0; i < rounds; i++) {
      bareTimes.push(await bare(server.baseURL))
      last = await full(server.baseURL, dir)
      loopTimes.push(last.cpu)
    }
    const b = median(bareTimes)
    const l = median(loopTimes)
    return {
      tokens,
      bareCpuMs: b,
      loopCpuMs: l,
      ratio: l / b,
      dbWritesPerTurn: last.writes,
      messagesPerTurn: last.messages,
      textDeltaEvents: last.deltas,
    }
  } finally {
    server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
