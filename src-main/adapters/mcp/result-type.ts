/**
 * A result without `resultType` is a complete one. Spec 2026-07-28 has servers write the
 * field and clients read its absence as `complete` (the spec's schema says so, and the
 * conformance suite's `sep-2322-client-request-state` checks it); the SDK refuses such a
 * result on a 2026-07-28 session instead. Servers that leave it out exist, so every
 * response that reaches the SDK's protocol layer gets `resultType: "complete"` when it has
 * none. A result that says `input_required` (or anything else) is left as it is, and a
 * 2025-era session ignores the field.
 */
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client'

type OnMessage = NonNullable<Transport['onmessage']>

function withResultType(message: JSONRPCMessage): JSONRPCMessage {
  if (!('result' in message)) return message
  const result = message.result as Record<string, unknown> | null
  if (result === null || typeof result !== 'object' || 'resultType' in result) return message
  return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage
}

/**
 * Makes `transport` hand the protocol layer results with a `resultType`: whatever message
 * handler the SDK installs (it does so on connect, and for its era probe) receives them so.
 */
export function completeByDefault<T extends Transport>(transport: T): T {
  let handler: OnMessage | undefined
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: OnMessage | undefined) => {
      handler = next
        ? (((message: JSONRPCMessage, extra?: MessageExtraInfo) =>
            next(withResultType(message), extra)) as OnMessage)
        : undefined
    },
  })
  return transport
}
