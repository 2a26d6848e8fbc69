/**
 * Servers read for review before they are added: from text the user pasted (`mcp.parse`)
 * or from Claude Desktop's configuration (`mcp.importClaude`), each with the command line
 * it would run.
 */
import { existsSync } from 'node:fs'
import type { McpServerDraft } from '../../../../src-preload/contract/dto'
import type { McpServersConfig } from '../../../core/mcp-ports'
import { ExpectedError } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'

type DraftRoutes = 'mcp.parse' | 'mcp.importClaude'

/** `read`'s servers as drafts; a configuration that is not valid is `bad_request` */
function drafts(c: HandlerContext, read: () => McpServersConfig): McpServerDraft[] {
  const found = read()
  const stored = c.app.settings.get().mcpServers
  return Object.entries(found).map(([name, config]) => ({
    name,
    config,
    command: c.mcpConfigs.describe(config),
    commandLine: c.mcpConfigs.commandLine(config),
    exists: name in stored,
  }))
}

export function draftHandlers(c: HandlerContext): Pick<Handlers, DraftRoutes> {
  return {
    'mcp.parse': async ({ text, name }) => ({
      servers: drafts(c, () => c.mcpConfigs.parseText(text, name)),
    }),
    'mcp.importClaude': async () => {
      const file = c.mcpConfigs.claudeDesktopFile(c.env)
      if (!existsSync(file))
        throw new ExpectedError('not_found', `Claude Desktop's configuration is not at ${file}.`)
      return { file, servers: drafts(c, () => c.mcpConfigs.importClaudeDesktop(file)) }
    },
  }
}
