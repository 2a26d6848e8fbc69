/**
 * `cairn assistants tools <name>`: the tools a turn with this assistant would offer the
 * model now. The MCP servers it may use are started for it (`--mcp-config` replaces them,
 * as for a turn); an assistant that allows no server's tools starts none.
 */
import type { Assistant } from '../../src-preload/contract/assistants'
import { readMcpConfigFile } from '../adapters/mcp/config'
import { allowsAnyServerTool } from '../core/tools/assistant-filter'
import { previewAssistantTools } from '../services/assistants/assistant-preview'
import type { AppServices } from '../services/host/app-services'
import { startToolRuntime } from '../services/tools/tool-runtime'
import type { CliOptions } from './args'
import { oneLine, type Streams } from './output'
import { jsonLine } from './terminal-text'

export async function assistantTools(
  app: AppServices,
  assistant: Assistant,
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  const warn = (m: string): void => void streams.stderr.write(`Warning: ${m}\n`)
  const servers = allowsAnyServerTool(assistant.tools)
  const override = !servers
    ? {}
    : options.mcpConfig
      ? readMcpConfigFile(options.mcpConfig)
      : undefined
  const runtime = await startToolRuntime(app, { ...(override ? { override } : {}), warn })
  try {
    if (servers) await runtime.manager.settled(30_000)
    const preview = await previewAssistantTools(app, runtime, assistant)
    if (options.json) {
      out(jsonLine(preview))
      return 0
    }
    if (preview.tools.length === 0) out(`"${assistant.name}" offers the model no tools.`)
    for (const t of preview.tools)
      out(
        `${t.name}  ${t.server === null ? 'built-in' : `server ${t.server}`}${t.readOnly ? '  read-only' : ''}  ${oneLine(t.description, 100)}`,
      )
    if (preview.findTools)
      out(
        'These are more tools than one request carries: the model gets the built-in ones and find_tools, which searches the rest.',
      )
    for (const m of preview.missing)
      streams.stderr.write(
        `Not available now: ${m.server === null ? `the built-in tool ${m.name}` : `${m.server}:${m.name}`}\n`,
      )
    return 0
  } finally {
    await runtime.shutdown()
  }
}
