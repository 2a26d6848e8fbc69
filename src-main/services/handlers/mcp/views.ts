/**
 * Tools' views (MCP Apps): which connected tools have one, and a view read from its server
 * and kept for the host to serve (`view-documents.ts`), under the policy its resource
 * declares as far as Cairn allows it (`view-policy.ts`). A server's views are shown only
 * once the user allowed them (its `allowViews`, set from the card or the settings).
 */
import { viewUriOf, type ToolViewInfo } from '../../../../src-preload/contract/mcp-apps'
import { ExpectedError } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import { allowedViewCsp } from '../../host/view-policy'
import { callFromView } from '../../tools/view-calls'
import type { HandlerContext } from '../handler-context'

type ViewRoutes = 'mcp.toolViews' | 'mcp.openView' | 'mcp.viewCall'

/** Whether the user allowed `server`'s views: its entry as stored now (a change restarts nothing). */
export function viewsAllowed(c: HandlerContext, server: string): boolean {
  if (c.mcpOverride) return c.tools.manager.get(server)?.config.allowViews === true
  return c.app.settings.get().mcpServers[server]?.['allowViews'] === true
}

/** every ready server's tools that name a view */
function toolViews(c: HandlerContext): ToolViewInfo[] {
  return c.tools.manager.sources().flatMap((source) => {
    if (source.status() !== 'ready') return []
    const allowed = viewsAllowed(c, source.name)
    return source.tools().flatMap((t) => {
      const uri = viewUriOf(t.meta)
      return uri ? [{ server: source.name, tool: t.name, uri, allowed }] : []
    })
  })
}

export function viewHandlers(c: HandlerContext): Pick<Handlers, ViewRoutes> {
  return {
    'mcp.toolViews': () => Promise.resolve({ views: toolViews(c) }),
    'mcp.openView': async ({ server, tool }) => {
      const view = toolViews(c).find((v) => v.server === server && v.tool === tool)
      if (!view) {
        throw new ExpectedError(
          'not_found',
          `The tool ${tool} of "${server}" has no view, or its server is not running.`,
        )
      }
      if (!view.allowed) return { status: 'blocked' }
      const doc = await c.tools.resourcesAndPrompts.readView(server, view.uri)
      const { csp, refused } = allowedViewCsp(doc.meta)
      return {
        status: 'ready',
        path: c.views.add(doc.html, csp),
        csp,
        refused,
        prefersBorder: doc.meta.prefersBorder ?? null,
      }
    },
    'mcp.viewCall': async (input) => {
      // a server whose views are not allowed has no view to call from
      if (!viewsAllowed(c, input.server)) {
        throw new ExpectedError(
          'forbidden',
          `Views from "${input.server}" are not allowed: allow them on the tool's card first.`,
        )
      }
      return callFromView({ app: c.app, tools: c.tools, approver: c.approvals, hub: c.hub }, input)
    },
  }
}
