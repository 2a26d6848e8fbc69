/**
 * Claude Desktop extensions (`.mcpb` bundles): opened (unpacked into the data directory and
 * checked) for review, then installed as a server added switched off the same way as a
 * server typed in (`mcp.add`): switching it on asks before it runs. Sensitive settings go
 * to the secrets store, never to the settings.
 */
import type { ExtensionReview } from '../../../../src-preload/contract/mcpb'
import { ExpectedError } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'
import { serverEditHandlers } from './server-edits'

type ExtensionRoutes =
  'mcp.extensionOpen' | 'mcp.extensionPick' | 'mcp.extensionInstall' | 'mcp.extensionDiscard'

/** a setting of several values comes one per line */
function valuesOf(values: Record<string, string>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v.includes('\n') ? v.split('\n') : v]),
  )
}

export function extensionHandlers(c: HandlerContext): Pick<Handlers, ExtensionRoutes> {
  const configured = (name: string): boolean => name in c.app.settings.get().mcpServers
  const add = serverEditHandlers(c)['mcp.add']
  return {
    'mcp.extensionOpen': async ({ name, data }) =>
      await c.mcpExtensions.open({ file: name, bytes: data }, configured),
    'mcp.extensionPick': async (): Promise<{ review: ExtensionReview | null }> => {
      if (!c.dialogs?.pickExtensionFile)
        throw new ExpectedError(
          'unavailable',
          'The system’s file dialog is the desktop app’s: here the page chooses the file.',
        )
      const path = await c.dialogs.pickExtensionFile({ title: 'Install an extension' })
      return { review: path ? await c.mcpExtensions.open({ path }, configured) : null }
    },
    'mcp.extensionInstall': async ({ stageId, name, values }) => {
      if (c.mcpOverride)
        throw new ExpectedError(
          'conflict',
          'The MCP servers of this run come from --mcp-config; change that file instead.',
        )
      if (configured(name))
        throw new ExpectedError('conflict', `An MCP server named "${name}" exists already.`, {
          details: { fields: { name: 'taken' } },
        })
      const { entry, secretValues } = await c.mcpExtensions.install(stageId, name, valuesOf(values))
      try {
        c.app.secrets.setMcpValues(name, secretValues)
        return await add({ name, config: entry })
      } catch (e) {
        c.app.secrets.setMcpValues(name, null)
        if (entry.extension) await c.mcpExtensions.remove(entry.extension)
        throw e
      }
    },
    'mcp.extensionDiscard': async ({ stageId }) => {
      await c.mcpExtensions.discard(stageId)
      return { discarded: true }
    },
  }
}
