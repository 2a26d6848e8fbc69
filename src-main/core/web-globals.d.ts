/**
 * The globals the core may use, for `tsconfig.core.json`, which checks the core with no Node
 * types (`types: []`, lib ES2023): Buffer, process, require, __dirname and the global fetch do
 * not compile there, so the core cannot lean on Node behind the import rule's back. What is
 * declared here is web-standard (Node, browsers and workers all have it), and only the parts
 * the core uses: abort signals, timers, `performance.now`, URL, text encoding, and the types
 * of a fetch and its streamed body. The core makes no request itself: it gets a `Fetch`
 * through its ports (core/ports.ts). `node:crypto` (allowed by the import rule) is declared
 * with the two functions the core calls.
 *
 * tsconfig.node.json leaves this file out: the rest of src-main, and the core again, are
 * checked there against Node's own types, which these declarations must agree with.
 */

interface AbortSignal {
  readonly aborted: boolean
  readonly reason: unknown
  throwIfAborted(): void
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}
declare const AbortSignal: {
  prototype: AbortSignal
  abort(reason?: unknown): AbortSignal
  timeout(ms: number): AbortSignal
  any(signals: AbortSignal[]): AbortSignal
}

interface AbortController {
  readonly signal: AbortSignal
  abort(reason?: unknown): void
}
declare const AbortController: { prototype: AbortController; new (): AbortController }

/** what `setTimeout` gives back: a number in a browser, an object in Node (which can `unref`) */
interface TimerHandle {
  unref?(): unknown
}
declare function setTimeout(callback: () => void, ms?: number): TimerHandle
declare function clearTimeout(handle: TimerHandle | null | undefined): void

declare const performance: { now(): number }

interface URL {
  href: string
  readonly origin: string
  protocol: string
  username: string
  password: string
  host: string
  hostname: string
  port: string
  pathname: string
  search: string
  hash: string
  toString(): string
  toJSON(): string
}
declare const URL: {
  prototype: URL
  new (url: string | URL, base?: string | URL): URL
  canParse(url: string | URL, base?: string | URL): boolean
  parse(url: string | URL, base?: string | URL): URL | null
}

interface TextDecoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string
}
declare const TextDecoder: {
  prototype: TextDecoder
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder
}
interface TextEncoder {
  encode(input?: string): Uint8Array
}
declare const TextEncoder: { prototype: TextEncoder; new (): TextEncoder }

// A fetch's types, for the `Fetch` port and the SDK. No `fetch` value: it comes through a port.

interface Headers {
  get(name: string): string | null
  has(name: string): boolean
  forEach(callback: (value: string, key: string) => void): void
}
/** a request object: the core only passes one on */
interface Request {
  readonly url: string
  readonly method: string
}
interface RequestInit {
  method?: string
  headers?: Headers | Record<string, string> | [string, string][]
  body?: string | Uint8Array | ReadableStream<Uint8Array> | null
  signal?: AbortSignal | null
}
interface ResponseInit {
  status?: number
  statusText?: string
  headers?: Headers | Record<string, string> | [string, string][]
}
interface Response {
  readonly ok: boolean
  readonly status: number
  readonly statusText: string
  readonly headers: Headers
  readonly body: ReadableStream<Uint8Array> | null
  text(): Promise<string>
  json(): Promise<unknown>
}
declare const Response: {
  prototype: Response
  new (body?: ReadableStream<Uint8Array> | string | null, init?: ResponseInit): Response
}

interface ReadableStream<R = unknown> {
  pipeThrough<T>(transform: {
    writable: WritableStream<R>
    readable: ReadableStream<T>
  }): ReadableStream<T>
  [Symbol.asyncIterator](): AsyncIterator<R>
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type of what is written
interface WritableStream<W = unknown> {
  readonly locked: boolean
}
interface TransformStreamDefaultController<O = unknown> {
  enqueue(chunk: O): void
  error(reason?: unknown): void
  terminate(): void
}
interface TransformStream<I = unknown, O = unknown> {
  readonly readable: ReadableStream<O>
  readonly writable: WritableStream<I>
}
declare const TransformStream: {
  prototype: TransformStream
  new <I = unknown, O = unknown>(transformer?: {
    transform?(chunk: I, controller: TransformStreamDefaultController<O>): void | Promise<void>
    flush?(controller: TransformStreamDefaultController<O>): void | Promise<void>
  }): TransformStream<I, O>
}

declare module 'node:crypto' {
  interface Hash {
    update(data: string | Uint8Array): Hash
    digest(encoding: 'hex' | 'base64' | 'base64url'): string
  }
  export function randomUUID(): string
  export function createHash(algorithm: string): Hash
}
