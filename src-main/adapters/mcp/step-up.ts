/**
 * Step-up: a server refused a call for lack of a permission (`403 insufficient_scope`) that
 * the user's login did not ask for. Where someone can be asked (the window, a terminal),
 * the call's own question channel shows them the login address with why it is needed; if
 * they open it, Cairn logs in again for the permissions the server named (with those it had)
 * and the call is made again. Where nobody can be asked, the call fails saying how to log in.
 */
import { InsufficientScopeError } from '@modelcontextprotocol/client'
import type { ToolCallScope } from '../../core/ports'
import type { HttpServerConfig } from '../../core/mcp-ports'
import { ExpectedError } from '../../core/errors'
import { loginToServer } from './oauth-login'
import type { McpAuthStore } from './oauth-store'

/** the scope a refused call asked for, when `e` (or its cause) is a step-up challenge */
export function stepUpScope(e: unknown): string | null {
  for (let x: unknown = e, depth = 0; x && depth < 5; depth++) {
    if (x instanceof InsufficientScopeError) return x.requiredScope ?? ''
    x = (x as { cause?: unknown }).cause
  }
  return null
}

/** A call needs a new login for more permission; it carries the permission asked for. */
export class StepUpNeeded extends ExpectedError<'forbidden'> {
  constructor(
    readonly server: string,
    readonly scope: string,
  ) {
    super('forbidden', stepUpMessage(server, scope))
    this.name = 'StepUpNeeded'
  }
}

export function stepUpMessage(server: string, scope: string): string {
  const what = scope ? `the permission "${scope}"` : 'more permission'
  return `The server "${server}" needs ${what}, which your login does not give: log in again with "Log in" in Settings › MCP servers, or run \`cairn mcp login ${server}\`, then try again.`
}

/** The person chose not to log in again (or nobody could be asked). */
class Declined extends ExpectedError<'aborted'> {
  constructor() {
    super('aborted', 'The login again was declined.')
  }
}

/**
 * Asks, through the call's question channel, to log in again for `scope`, and does it.
 * True when the login completed; false when it was declined or nobody could be asked.
 */
export async function stepUpLogin(o: {
  server: string
  config: HttpServerConfig
  store: McpAuthStore
  clientVersion: string
  clientMetadataUrl: string | null
  scope: string
  tool: string
  ctx: ToolCallScope
}): Promise<boolean> {
  const elicit = o.ctx.elicit
  if (!elicit || o.ctx.signal.aborted) return false
  const what = o.scope ? `the permission "${o.scope}"` : 'more permission'
  try {
    await loginToServer(o.server, o.config, {
      store: o.store,
      clientVersion: o.clientVersion,
      clientMetadataUrl: o.clientMetadataUrl,
      open: async (url) => {
        const answer = await elicit({
          server: o.server,
          mode: 'url',
          message: `To run ${o.tool}, "${o.server}" needs ${what}, which your login does not give. Log in again in your browser to allow it; the call is then made again.`,
          url: url.href,
        })
        if (answer.action !== 'accept') throw new Declined()
      },
    })
    return true
  } catch (e) {
    if (e instanceof Declined) return false
    throw e
  }
}
