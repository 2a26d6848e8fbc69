/**
 * What went wrong with an MCP server, in words a person can act on: why it did not become
 * ready (its exit code and last stderr lines, a handshake that timed out, an address that
 * could not be reached), and why a tool call did not finish.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client'
import { isStdio, type McpServerConfig } from '../../core/mcp-ports'
import { DEFAULT_MAX_CALL_TIMEOUT_MS } from './config'

/** what the explanations read of a started stdio server */
interface Launched {
  transport: {
    stderrTail(): string
    readonly exit: { code: number | null; signal: string | null } | null
  }
}

/**
 * A request that ran out of time (Cairn's call timer, the SDK's own connect limit). A call
 * stopped by the user is a request-timeout error too in the SDK's words, but carries no
 * `timeout`: it is not one.
 */
export const isTimeout = (e: unknown): boolean =>
  e instanceof SdkError &&
  e.code === SdkErrorCode.RequestTimeout &&
  typeof (e.data as { timeout?: unknown } | undefined)?.timeout === 'number'

export function lastLines(text: string, n: number): string {
  return text.trim().split('\n').slice(-n).join(' | ').slice(0, 500)
}

/** Why the server did not become ready, leading with what the user can act on. */
export function explainStartError(
  e: unknown,
  o: { config: McpServerConfig; launch: Launched | null; timeoutMs: number },
): string {
  const message = e instanceof Error ? e.message : String(e)
  const exit = isStdio(o.config) ? o.launch?.transport.exit : null
  const tail = lastLines(o.launch?.transport.stderrTail() ?? '', 3)
  let head: string
  if (exit && !isTimeout(e)) {
    head = exit.signal
      ? `The server was killed by ${exit.signal} before it was ready`
      : `The server exited with code ${exit.code} before it was ready`
  } else if (isTimeout(e)) {
    head =
      `The server did not answer the MCP handshake within ${Math.round(o.timeoutMs / 1000)} s ` +
      `(timed out)` +
      (isStdio(o.config) ? '; is this command an MCP server that speaks over stdio?' : '')
  } else {
    head = isStdio(o.config) ? 'The server did not start' : `Could not connect to ${o.config.url}`
  }
  return `${head}. ${tail ? `Its last output: ${tail}. ` : ''}(${message})`
}

/** Why a tool call did not finish. */
export function explainCallError(
  e: unknown,
  o: {
    server: string
    tool: string
    timeout: number
    config: McpServerConfig
    launch: Launched | null
  },
): string {
  const { server, tool, timeout } = o
  if (isTimeout(e) && /maximum total/i.test((e as SdkError).message)) {
    const max = Math.max(timeout, o.config.maxTimeoutMs ?? DEFAULT_MAX_CALL_TIMEOUT_MS)
    return `${tool} on the server "${server}" did not answer within its maximum of ${Math.round(max / 1000)} s (its progress reports extend its time up to that); the call was cancelled.`
  }
  if (isTimeout(e)) {
    return `${tool} on the server "${server}" did not answer within ${Math.round(timeout / 1000)} s; the call was cancelled.`
  }
  if (e instanceof SdkError && e.code === SdkErrorCode.ConnectionClosed) {
    const exit = o.launch?.transport.exit
    const how = exit
      ? ` (${exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`})`
      : ''
    return `the server "${server}" stopped while ${tool} was running${how}; the call did not finish.`
  }
  if (
    e instanceof ProtocolError &&
    e.code === ProtocolErrorCode.InvalidParams &&
    /structured content/i.test(e.message)
  ) {
    return `the server "${server}" returned structured content that does not match ${tool}'s output schema: ${e.message}`
  }
  return e instanceof Error ? e.message : String(e)
}
