/**
 * An MCP server as `mcp.list` describes it, for the screens' tests: a stdio server, ready
 * and enabled, with no tools, unless `p` says otherwise.
 */
import type { McpServerInfo } from '../../../src-preload/contract/dto'

export function mcpServer(p: Partial<McpServerInfo> & { name: string }): McpServerInfo {
  return {
    state: 'ready',
    error: null,
    transport: 'stdio',
    command: p.name,
    resolvedCommand: null,
    enabled: true,
    trustAnnotations: false,
    tools: [],
    stderrTail: '',
    restarts: 0,
    pid: null,
    searchPath: null,
    commandLine: null,
    protocolVersion: null,
    ...p,
  }
}
