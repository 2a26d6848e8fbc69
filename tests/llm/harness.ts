/**
 * Shared pieces for the LLM client tests: a scripted server per test, a client on it, a
 * recording sleep, and a collector that behaves like the UI (drops what it showed when told).
 */
import { afterEach, beforeEach } from 'vitest'
import { LlmClient, resetStreamOptionsMemory } from '../../src-main/core/llm/client'
import type { ChatRequest, RetryInfo, StreamDelta } from '../../src-main/core/llm/types'
import { startScriptedServer } from '../support/openai-server'
import type { ScriptedServer, ScriptedServerOptions } from '../support/openai-server'

export function useServer(opts: ScriptedServerOptions = {}): {
  server: ScriptedServer
  client: LlmClient
} {
  const ctx = {} as { server: ScriptedServer; client: LlmClient }
  beforeEach(async () => {
    resetStreamOptionsMemory()
    ctx.server = await startScriptedServer(opts)
    ctx.client = new LlmClient({ baseURL: ctx.server.baseURL }, { fetch })
  })
  afterEach(async () => {
    await ctx.server.close()
  })
  return ctx
}

export function request(content = 'Hello?', extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'test-model', messages: [{ role: 'user', content }], ...extra }
}

/** A sleep that records the delays and returns at once (rejecting if the signal is aborted). */
export function recordingSleep(): {
  delays: number[]
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
} {
  const delays: number[] = []
  return {
    delays,
    sleep: async (ms, signal) => {
      delays.push(ms)
      if (signal.aborted) throw signal.reason
    },
  }
}

/** A real, abortable sleep. */
export function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(t)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** What a UI would show: deltas appended, dropped when a retry says so. */
export function screen(): {
  deltas: StreamDelta[]
  retries: RetryInfo[]
  text: () => string
  reasoning: () => string
  onDelta: (d: StreamDelta) => void
  onRetry: (info: RetryInfo) => void
} {
  let shown: StreamDelta[] = []
  const all: StreamDelta[] = []
  const retries: RetryInfo[] = []
  return {
    deltas: all,
    retries,
    text: () =>
      shown
        .filter((d) => d.type === 'text')
        .map((d) => d.text)
        .join(''),
    reasoning: () =>
      shown
        .filter((d) => d.type === 'reasoning')
        .map((d) => d.text)
        .join(''),
    onDelta: (d) => {
      shown.push(d)
      all.push(d)
    },
    onRetry: (info) => {
      retries.push(info)
      if (info.discardPartial) shown = []
    },
  }
}

/** Runs `fn` and returns what it threw (fails if it did not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn()
  } catch (err) {
    return err
  }
  throw new Error('expected a rejection')
}

export function signal(): AbortSignal {
  return new AbortController().signal
}
