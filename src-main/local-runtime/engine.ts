/**
 * node-llama-cpp in the runtime process: the prebuilt llama.cpp binary (never built or
 * downloaded here), one model loaded at a time, unloaded after an idle time, and one
 * answer written at a time (requests queue). The context is as large as the model was
 * trained for, up to the configured largest, and as large as the memory allows.
 */
import os from 'node:os'
import type * as NodeLlamaCppModule from 'node-llama-cpp'
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  Llama,
  LlamaChat,
  LlamaContext,
  LlamaModel,
} from 'node-llama-cpp'
import { formatBytes, memoryError } from '../core/local-models/memory'

export interface EngineOptions {
  /** unload the model after this long without a request */
  idleMs: number
  /** CPU threads for generation (0: half the machine's cores, at least 1) */
  threads: number
  /** the largest context window to allocate (tokens) */
  maxContext: number
  log: (line: string) => void
}

export interface GenerateInput {
  modelPath: string
  history: ChatHistoryItem[]
  functions: ChatModelFunctions | undefined
  temperature?: number
  topP?: number
  seed?: number
  maxTokens?: number
  thinking?: boolean
  signal: AbortSignal
  onText: (text: string) => void
  onReasoning: (text: string) => void
}

export interface GenerateOutput {
  toolCalls: { name: string; arguments: string }[]
  finishReason: 'stop' | 'length' | 'tool_calls'
  promptTokens: number
  completionTokens: number
}

export interface LoadedModel {
  path: string
  model: LlamaModel
  context: LlamaContext
  chat: LlamaChat
}

/** Thrown for what the user can fix (a model too large, a missing binary); said as is. */
export class RuntimeError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message)
  }
}

type NodeLlamaCpp = typeof NodeLlamaCppModule

/** node-llama-cpp's "does not fit" said as servers say it (Cairn explains it with the window). */
async function overflowSaid<T>(contextSize: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    if (
      /does not fit|fits the context size|context size is too small/i.test((e as Error).message)
    ) {
      throw new RuntimeError(
        `The request exceeds the available context size of ${contextSize} tokens (${(e as Error).message})`,
        400,
        'context_length_exceeded',
      )
    }
    throw e
  }
}

export class LocalEngine {
  private lib: Promise<NodeLlamaCpp> | null = null
  private llama: Promise<Llama> | null = null
  private loaded: LoadedModel | null = null
  private loading: Promise<LoadedModel> | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private idleTimer: NodeJS.Timeout | null = null

  constructor(private readonly opts: EngineOptions) {}

  private library(): Promise<NodeLlamaCpp> {
    this.lib ??= import('node-llama-cpp')
    return this.lib
  }

  /** llama.cpp itself: the prebuilt binary for this machine, GPU where it has one. */
  private runtime(): Promise<Llama> {
    this.llama ??= this.library().then(async ({ getLlama, LlamaLogLevel }) => {
      try {
        return await getLlama({
          build: 'never',
          usePrebuiltBinaries: true,
          skipDownload: true,
          progressLogs: false,
          logLevel: LlamaLogLevel.error,
          logger: (_level, message) => this.opts.log(message.trimEnd()),
        })
      } catch (e) {
        this.llama = null
        throw new RuntimeError(
          `The local model runtime has no llama.cpp binary for this machine (${process.platform}-${process.arch}): ${(e as Error).message}. ` +
            'Reinstall Cairn so that its prebuilt binary package (@node-llama-cpp/<platform>) is installed.',
          500,
          'no_binary',
        )
      }
    })
    return this.llama
  }

  /** What the runtime runs on, for /props and the log. */
  async describe(): Promise<{ gpu: string | false; threads: number }> {
    const llama = await this.runtime()
    return { gpu: llama.gpu, threads: this.threads() }
  }

  private threads(): number {
    if (this.opts.threads > 0) return this.opts.threads
    return Math.max(1, Math.floor(os.availableParallelism() / 2))
  }

  /** The loaded model's context window, or null. */
  loadedContext(path: string): number | null {
    return this.loaded?.path === path ? this.loaded.context.contextSize : null
  }

  private async load(path: string): Promise<LoadedModel> {
    if (this.loaded?.path === path) return this.loaded
    if (this.loading) await this.loading.catch(() => undefined)
    if (this.loaded?.path === path) return this.loaded
    await this.unload()
    this.loading = this.loadNew(path)
    try {
      this.loaded = await this.loading
      return this.loaded
    } finally {
      this.loading = null
    }
  }

  private async loadNew(path: string): Promise<LoadedModel> {
    const { readGgufFileInfo, GgufInsights, LlamaChat } = await this.library()
    const llama = await this.runtime()
    const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false })
    const insights = await GgufInsights.from(info, llama)
    const trained = insights.trainContextSize ?? 2048
    const smallest = Math.min(trained, 512)
    const gpuLayers = llama.gpu === false ? 0 : insights.totalLayers
    const need =
      insights.estimateModelResourceRequirements({ gpuLayers }).cpuRam +
      insights.estimateContextResourceRequirements({
        contextSize: smallest,
        modelGpuLayers: gpuLayers,
      }).cpuRam
    const tooLarge = memoryError(path, need, os.freemem(), os.totalmem())
    if (tooLarge) throw new RuntimeError(tooLarge, 507, 'insufficient_memory')
    const model = await llama.loadModel({
      modelPath: path,
      gpuLayers: llama.gpu === false ? 0 : 'auto',
    })
    try {
      const context = await model.createContext({
        contextSize: { min: smallest, max: Math.min(trained, this.opts.maxContext) },
        threads: this.threads(),
        sequences: 1,
      })
      const chat = new LlamaChat({
        contextSequence: context.getSequence(),
        autoDisposeSequence: true,
      })
      this.opts.log(
        `loaded ${path}: context ${context.contextSize} tokens, ${this.threads()} threads, ` +
          `${llama.gpu === false ? 'CPU' : llama.gpu} (about ${formatBytes(need)} of memory)`,
      )
      return { path, model, context, chat }
    } catch (e) {
      await model.dispose()
      throw e
    }
  }

  async unload(): Promise<void> {
    const l = this.loaded
    this.loaded = null
    if (!l) return
    l.chat.dispose()
    await l.context.dispose()
    await l.model.dispose()
    this.opts.log(`unloaded ${l.path}`)
  }

  private touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      this.queue = this.queue.then(() => this.unload()).catch(() => undefined)
    }, this.opts.idleMs)
    this.idleTimer.unref()
  }

  /** Writes one answer (after those already queued). */
  generate(input: GenerateInput): Promise<GenerateOutput> {
    const run = this.queue.then(() => this.generateNow(input))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async generateNow(input: GenerateInput): Promise<GenerateOutput> {
    if (input.signal.aborted) throw input.signal.reason
    if (this.idleTimer) clearTimeout(this.idleTimer)
    try {
      const { chat, context, model } = await this.load(input.modelPath)
      // the prompt as the chat template writes it: its length is the usage's prompt tokens,
      // and what is left of the context is the most the answer may take
      const prompt = chat.chatWrapper.generateContextState({
        chatHistory: input.history,
        ...(input.functions ? { availableFunctions: input.functions } : {}),
      })
      const promptTokens = prompt.contextText.tokenize(model.tokenizer).length
      let completionTokens = 0
      const result = await overflowSaid(context.contextSize, () =>
        chat.generateResponse(input.history, {
          ...(input.functions ? { functions: input.functions } : {}),
          signal: input.signal,
          stopOnAbortSignal: true,
          maxTokens: input.maxTokens ?? Math.max(1, context.contextSize - promptTokens),
          ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
          ...(input.topP !== undefined ? { topP: input.topP } : {}),
          ...(input.seed !== undefined ? { seed: input.seed } : {}),
          ...(input.thinking === false ? { budgets: { thoughtTokens: 0 } } : {}),
          onToken: (tokens) => void (completionTokens += tokens.length),
          onResponseChunk: (chunk) => {
            if (chunk.type === undefined) input.onText(chunk.text)
            else if (chunk.segmentType === 'thought') input.onReasoning(chunk.text)
          },
        }),
      )
      const calls = result.functionCalls ?? []
      const stop = result.metadata.stopReason
      return {
        toolCalls: calls.map((c) => ({
          name: c.functionName,
          arguments: JSON.stringify(c.params ?? {}),
        })),
        finishReason: calls.length > 0 ? 'tool_calls' : stop === 'maxTokens' ? 'length' : 'stop',
        promptTokens,
        completionTokens,
      }
    } finally {
      this.touch()
    }
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    await this.unload().catch(() => undefined)
    const llama = await this.llama?.catch(() => null)
    await llama?.dispose()
  }
}
