/**
 * The `mcp.*` routes, one file per part: the servers and their state (`servers.ts`), adding,
 * changing and removing them (`server-edits.ts`, with the consent to run a command in
 * `command-consent.ts`), servers read from pasted text or Claude Desktop's file for review
 * (`drafts.ts`), servers from an MCP registry (`registry.ts`), Claude Desktop extensions
 * (`extensions.ts`), OAuth logins (`login.ts`),
 * what the servers offer besides tools (`resources-and-prompts.ts`) and tools' views
 * (`views.ts`).
 */
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'
import { draftHandlers } from './drafts'
import { extensionHandlers } from './extensions'
import { loginHandlers } from './login'
import { registryHandlers } from './registry'
import { resourcesAndPromptsHandlers } from './resources-and-prompts'
import { serverEditHandlers } from './server-edits'
import { serverHandlers } from './servers'
import { viewHandlers } from './views'

type McpRoute = Extract<keyof Handlers, `mcp.${string}`>

export function mcpHandlers(c: HandlerContext): Pick<Handlers, McpRoute> {
  return {
    ...serverHandlers(c),
    ...serverEditHandlers(c),
    ...draftHandlers(c),
    ...registryHandlers(c),
    ...extensionHandlers(c),
    ...loginHandlers(c),
    ...resourcesAndPromptsHandlers(c),
    ...viewHandlers(c),
  }
}
