/** How a server's status reads: a word for everyone and a tone the colour follows. */
import type { McpServerInfo } from '../../../../src-preload/contract/dto'

export type McpStatusTone = 'ok' | 'busy' | 'bad' | 'off'

export function mcpStatus(s: McpServerInfo): { label: string; tone: McpStatusTone } {
  if (!s.enabled) return { label: 'disabled', tone: 'off' }
  switch (s.state) {
    case 'ready':
      return { label: 'ready', tone: 'ok' }
    case 'starting':
      return { label: s.error ? 'restarting' : 'starting', tone: 'busy' }
    case 'error':
      return { label: 'error', tone: 'bad' }
    case 'needs-login':
      return { label: 'needs login', tone: 'busy' }
    default:
      return { label: 'stopped', tone: 'off' }
  }
}

export const transportLabel: Record<McpServerInfo['transport'], string> = {
  stdio: 'command (stdio)',
  'streamable-http': 'URL (Streamable HTTP)',
  sse: 'URL (SSE)',
}
