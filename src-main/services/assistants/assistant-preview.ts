/**
 * What the model would be offered with an assistant's tool rules, from the tools connected
 * now (the ready MCP servers and the built-in tools the settings switch on): the window's
 * live preview while an assistant is edited, and `cairn assistants show`.
 */
import type {
  AssistantDraft,
  AssistantToolsPreview,
} from '../../../src-preload/contract/assistants'
import { toolLimit } from '../../core/agent/tool-catalog'
import { allowsDescriptor } from '../../core/tools/assistant-filter'
import { BUILTIN_SERVER } from '../../core/tools/composite-host'
import type { ToolDescriptor } from '../../core/ports'
import type { AppServices } from '../host/app-services'
import type { ToolRuntime } from '../../core/service-ports'

export async function previewAssistantTools(
  app: AppServices,
  runtime: Pick<ToolRuntime, 'hostFor'>,
  draft: AssistantDraft,
): Promise<AssistantToolsPreview> {
  const settings = app.settings.get()
  const all = await runtime.hostFor({ workspace: draft.workspace ?? null }).listTools()
  const offered = all.filter((d) => allowsDescriptor(draft.tools, d))
  return {
    tools: offered.map((d) => ({
      name: d.name,
      server: d.server === BUILTIN_SERVER ? null : d.server,
      description: d.description,
      readOnly: d.annotations.readOnlyHint === true && d.trusted,
    })),
    findTools: offered.length > toolLimit(settings.limits.maxToolsOffered),
    missing: missingTools(draft, all),
  }
}

/** tools the draft names (mode `some`) that the built-in set or their server does not have now */
function missingTools(
  draft: AssistantDraft,
  all: ToolDescriptor[],
): AssistantToolsPreview['missing'] {
  const has = (server: string, tool: string): boolean =>
    all.some((d) => d.server === server && d.tool === tool)
  const out: AssistantToolsPreview['missing'] = []
  if (draft.tools.builtin.mode === 'some')
    for (const name of draft.tools.builtin.names)
      if (!has(BUILTIN_SERVER, name)) out.push({ server: null, name })
  for (const [server, selection] of Object.entries(draft.tools.mcp.servers))
    if (selection.mode === 'some')
      for (const name of selection.names) if (!has(server, name)) out.push({ server, name })
  return out
}
