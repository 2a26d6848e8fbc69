/**
 * The local model runtime on the tiny test model (tests/fixtures/models/stories260K.gguf):
 * the time from "send" to the first token with the model cold (the runtime process just
 * started, the model not loaded) and warm, and tokens per second while it writes; next to
 * llama.cpp's own `llama-server` on the same model and the same settings when
 * CAIRN_BENCH_LLAMA_SERVER names one (no such binary comes with node-llama-cpp's packages,
 * and nothing is downloaded or built here). Each request streams through the openai SDK.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { ModelIndex } from '../src-main/adapters/local-models/model-index'
import { LocalRuntime, nodeRuntimeLauncher } from '../src-main/services/providers/local-runtime'

const MODEL = join(process.cwd(), 'tests', 'fixtures', 'models', 'stories260K.gguf')
const RUNTIME = join(process.cwd(), 'out', 'cli', 'local-runtime.js')
const TOKENS = 256
const WARM_RUNS = 7
const CONTEXT = 2048
const THREADS = 1

export interface StreamFigures {
  firstTokenMs: number
  tokensPerSecond: number
}

export interface LocalRuntimeResult {
  coldFirstTokenMs: number
  warm: StreamFigures[]
  llamaServer: StreamFigures[] | null
  llamaServerNote: string
  release: string
}

/** One streamed completion: ms to the first token, output tokens per second after it. */
async function stream(client: OpenAI, model: string): Promise<StreamFigures> {
  const start = performance.now()
  let first: number | null = null
  let tokens = 0
  const s = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'Once upon a time' }],
    max_tokens: TOKENS,
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
  })
  for await (const chunk of s) {
    if (first === null && chunk.choices[0]?.delta.content) first = performance.now()
    if (chunk.usage) tokens = chunk.usage.completion_tokens
  }
  const end = performance.now()
  const firstAt = first ?? end
  return {
    firstTokenMs: firstAt - start,
    tokensPerSecond: tokens > 1 ? (tokens - 1) / ((end - firstAt) / 1000) : 0,
  }
}

async function benchCairn(): Promise<{ cold: number; warm: StreamFigures[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-local-'))
  const index = new ModelIndex(dir)
  await index.addFile(MODEL, 'tiny')
  const runtime = new LocalRuntime(nodeRuntimeLauncher(RUNTIME), () => ({
    dataDir: dir,
    idleMs: 600_000,
    threads: THREADS,
    maxContext: CONTEXT,
  }))
  try {
    // cold: from asking for the runtime (its process starts, then the model loads) to the first token
    const sent = performance.now()
    const address = await runtime.ensure()
    const client = new OpenAI({ baseURL: address.baseURL, apiKey: address.apiKey, maxRetries: 0 })
    const asked = performance.now()
    const cold = await stream(client, 'tiny')
    const warm: StreamFigures[] = []
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await stream(client, 'tiny'))
    return { cold: asked - sent + cold.firstTokenMs, warm }
  } finally {
    await runtime.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function benchLlamaServer(bin: string): Promise<StreamFigures[]> {
  const port = 18_000 + Math.floor(Math.random() * 2000)
  const child = spawn(
    bin,
    [
      '-m',
      MODEL,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '-c',
      String(CONTEXT),
      '-t',
      String(THREADS),
      '-np',
      '1',
    ],
    { stdio: 'ignore' },
  )
  try {
    const client = new OpenAI({
      baseURL: `http://127.0.0.1:${port}/v1`,
      apiKey: 'x',
      maxRetries: 0,
    })
    const deadline = Date.now() + 30_000
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
      if (ok) break
      if (Date.now() > deadline) throw new Error('llama-server did not start within 30 s')
      await new Promise((r) => setTimeout(r, 200))
    }
    await stream(client, 'tiny')
    const warm: StreamFigures[] = []
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await stream(client, 'tiny'))
    return warm
  } finally {
    child.kill('SIGKILL')
  }
}

export async function benchLocalRuntime(): Promise<LocalRuntimeResult> {
  const release = (
    JSON.parse(
      readFileSync(
        join(
          process.cwd(),
          'node_modules',
          'node-llama-cpp',
          'llama',
          'binariesGithubRelease.json',
        ),
        'utf8',
      ),
    ) as { release: string }
  ).release
  const { cold, warm } = await benchCairn()
  const bin = process.env['CAIRN_BENCH_LLAMA_SERVER']
  let llamaServer: StreamFigures[] | null = null
  let note: string
  if (bin) {
    llamaServer = await benchLlamaServer(bin)
    note = `llama-server: ${bin}`
  } else {
    note =
      'llama-server: not measured. node-llama-cpp ships no llama-server binary and nothing is downloaded here; ' +
      `set CAIRN_BENCH_LLAMA_SERVER to a llama-server built from the llama.cpp of node-llama-cpp's binaries (release ${release}) to compare`
  }
  return { coldFirstTokenMs: cold, warm, llamaServer, llamaServerNote: note, release }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? 0
}
const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? 0
}

export function printLocalRuntime(r: LocalRuntimeResult, verdict: (ok: boolean) => string): void {
  const tps = r.warm.map((w) => w.tokensPerSecond)
  const ttft = r.warm.map((w) => w.firstTokenMs)
  console.log(
    `   send → first token, cold   ${r.coldFirstTokenMs.toFixed(0)} ms (the runtime process starts, the model loads)`,
  )
  console.log(
    `   send → first token, warm   median ${median(ttft).toFixed(1)} ms, p95 ${p95(ttft).toFixed(1)} ms (${r.warm.length} runs)`,
  )
  console.log(
    `   tokens per second          median ${median(tps).toFixed(0)}, p95-low ${Math.min(...tps).toFixed(0)} (${TOKENS} tokens, ${THREADS} thread, context ${CONTEXT})`,
  )
  if (r.llamaServer) {
    const theirs = median(r.llamaServer.map((w) => w.tokensPerSecond))
    const ratio = median(tps) / theirs
    console.log(
      `   llama-server               median ${theirs.toFixed(0)} tokens/s, first token ${median(r.llamaServer.map((w) => w.firstTokenMs)).toFixed(1)} ms`,
    )
    console.log(
      `   ratio (Cairn / llama-server) ${ratio.toFixed(2)}   target ≥ 0.9   ${verdict(ratio >= 0.9)}`,
    )
  } else {
    console.log(`   ${r.llamaServerNote}`)
  }
}
