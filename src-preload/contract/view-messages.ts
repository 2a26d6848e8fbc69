/**
 * What a tool's view (MCP Apps) may say to the window over postMessage: JSON-RPC 2.0, each
 * message checked with zod before anything of it is used. A view is a third party: what is
 * not one of these shapes is refused (a request gets an error, anything else is dropped).
 */
import { z } from 'zod'

/** a message larger than this (as JSON) is dropped unread */
export const MAX_VIEW_MESSAGE_CHARS = 1_000_000

const id = z.union([z.string().max(100), z.number().int().safe()])

/** the envelope: a request (id and method), a notification (method) or a response (id) */
export const viewEnvelopeSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: id.optional(),
  method: z.string().min(1).max(100).optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
})

/** each method the host answers, with its parameters */
export const viewRequestSchemas = {
  'ui/initialize': z.object({
    protocolVersion: z.string().max(50),
    appInfo: z.object({ name: z.string().max(200), version: z.string().max(100) }).optional(),
    appCapabilities: z.record(z.string(), z.unknown()).optional(),
  }),
  'tools/call': z.object({
    name: z.string().min(1).max(200),
    arguments: z.record(z.string().max(200), z.unknown()).optional(),
  }),
  'ui/open-link': z.object({ url: z.string().min(1).max(4096) }),
  'ui/request-display-mode': z.object({ mode: z.enum(['inline', 'fullscreen', 'pip']) }),
  ping: z.object({}).optional(),
} as const

/** each notification the host listens to, with its parameters */
export const viewNotificationSchemas = {
  'ui/notifications/initialized': z.object({}).optional(),
  'ui/notifications/size-changed': z.object({
    width: z.number().min(0).max(100_000).optional(),
    height: z.number().min(0).max(100_000).optional(),
  }),
  'ui/notifications/request-teardown': z.object({}).optional(),
  'notifications/message': z.unknown(),
} as const

export type ViewRequestMethod = keyof typeof viewRequestSchemas
export type ViewNotificationMethod = keyof typeof viewNotificationSchemas

export type ViewRequest = {
  [M in ViewRequestMethod]: {
    method: M
    id: string | number
    params: z.infer<(typeof viewRequestSchemas)[M]>
  }
}[ViewRequestMethod]

export type ViewNotification = {
  [M in ViewNotificationMethod]: { method: M; params: z.infer<(typeof viewNotificationSchemas)[M]> }
}[ViewNotificationMethod]

/** What a message from a view is, once checked. */
export type ParsedViewMessage =
  | { kind: 'request'; request: ViewRequest }
  | { kind: 'notification'; notification: ViewNotification }
  | { kind: 'response'; id: string | number }
  /** a request the host cannot take: answer it with this error */
  | { kind: 'bad-request'; id: string | number; code: number; message: string }
  /** not JSON-RPC, too large, or a notification of no known kind: dropped */
  | { kind: 'dropped'; why: string }

/** JSON-RPC's error codes the host answers with */
export const RPC = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** too many messages: the view is slowed down */
  rateLimited: -32005,
  /** the user or the policy refused */
  refused: -32003,
  /** the call failed */
  failed: -32000,
} as const

function tooLarge(data: unknown): boolean {
  try {
    return (JSON.stringify(data)?.length ?? 0) > MAX_VIEW_MESSAGE_CHARS
  } catch {
    return true // cycles, BigInt: not JSON
  }
}

const has = <T extends object>(o: T, k: string): k is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(o, k)

/** Checks one message from a view. */
export function parseViewMessage(data: unknown): ParsedViewMessage {
  if (tooLarge(data)) return { kind: 'dropped', why: 'not JSON, or too large' }
  const env = viewEnvelopeSchema.safeParse(data)
  if (!env.success) return { kind: 'dropped', why: 'not a JSON-RPC 2.0 message' }
  const { id: rid, method, params } = env.data
  if (method === undefined) {
    return rid === undefined
      ? { kind: 'dropped', why: 'neither a request nor a response' }
      : { kind: 'response', id: rid }
  }
  if (rid === undefined) {
    if (!has(viewNotificationSchemas, method))
      return { kind: 'dropped', why: `unknown notification ${method.slice(0, 100)}` }
    const p = viewNotificationSchemas[method].safeParse(params)
    if (!p.success) return { kind: 'dropped', why: `bad parameters for ${method}` }
    return { kind: 'notification', notification: { method, params: p.data } as ViewNotification }
  }
  if (!has(viewRequestSchemas, method)) {
    return {
      kind: 'bad-request',
      id: rid,
      code: RPC.methodNotFound,
      message: `Cairn does not answer ${method.slice(0, 100)} from a view.`,
    }
  }
  const p = viewRequestSchemas[method].safeParse(params)
  if (!p.success) {
    return {
      kind: 'bad-request',
      id: rid,
      code: RPC.invalidParams,
      message: `The parameters of ${method} are not valid: ${p.error.issues[0]?.message ?? 'invalid'}.`,
    }
  }
  return { kind: 'request', request: { method, id: rid, params: p.data } as ViewRequest }
}
