/**
 * A server's prompt sent as the user's message (the composer's `/server:prompt`, the CLI's
 * `--prompt`): its messages as one text, and a link that says where the message came from.
 */
import type { McpPromptMessage } from '../../../src-preload/contract/resources-and-prompts'

/** the link a message made from a prompt carries: it says where the message came from */
export function promptOrigin(
  server: string,
  name: string,
): { type: 'resource_link'; uri: string; name: string } {
  return {
    type: 'resource_link',
    uri: `mcp-prompt:${encodeURIComponent(server)}/${encodeURIComponent(name)}`,
    name: `/${server}:${name}`,
  }
}

/** a prompt's messages as the text of one user message (what the assistant role says is marked) */
export function promptText(messages: readonly McpPromptMessage[]): string {
  return messages
    .map((m) => (m.role === 'assistant' ? `[Assistant, from the prompt]\n${m.text}` : m.text))
    .filter((t) => t.trim() !== '')
    .join('\n\n')
}
