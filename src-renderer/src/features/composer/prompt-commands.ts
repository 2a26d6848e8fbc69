/**
 * The servers' prompts as slash commands: `/server:prompt`. Pure functions: recognizing one
 * and Tab completion over the built-in commands and the prompts together.
 */
import type { McpPrompt } from '../../../../src-preload/contract/resources-and-prompts'
import { COMMANDS, complete, type Completion } from './commands'

export const promptCommand = (p: Pick<McpPrompt, 'server' | 'name'>): string =>
  `${p.server}:${p.name}`

/** `/server:prompt` alone on its line: the server and prompt named, or null */
export function parsePromptCommand(text: string): { server: string; name: string } | null {
  const m = /^\/([^\s:/]+):(\S+)$/.exec(text.trim())
  return m ? { server: m[1]!, name: m[2]! } : null
}

export function findPrompt(
  prompts: readonly McpPrompt[],
  ref: { server: string; name: string },
): McpPrompt | null {
  return prompts.find((p) => p.server === ref.server && p.name === ref.name) ?? null
}

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return ''
  let p = words[0]!
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1)
  return p
}

/** Tab: a command or prompt name (prompts after the built-in commands), else what `complete` does */
export function completeWithPrompts(
  text: string,
  models: readonly string[],
  prompts: readonly McpPrompt[],
): Completion | null {
  const typed = /^\/([^\s]*)$/.exec(text)?.[1]
  if (typed === undefined || prompts.length === 0) return complete(text, models)
  const lower = typed.toLowerCase()
  const names = [...COMMANDS.map((c) => c.name as string), ...prompts.map(promptCommand)].filter(
    (n) => n.toLowerCase().startsWith(lower),
  )
  if (names.length === 0) return null
  if (names.length === 1)
    return { text: `/${names[0]}${names[0] === 'model' ? ' ' : ''}`, candidates: [] }
  const prefix = commonPrefix(names)
  return {
    text: `/${prefix.length > typed.length ? prefix : typed}`,
    candidates: names.map((n) => `/${n}`),
  }
}
