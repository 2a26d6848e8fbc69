/**
 * `/resources` and `/prompts` in `cairn chat`: what the running MCP servers offer, as the
 * window's `@` picker and `/` commands list it (the same catalog). Every name comes from a
 * server and is stripped of control sequences.
 */
import type { ToolRuntime } from '../../services/tool-runtime'
import type { Streams } from '../output'
import { stripControls } from '../terminal-text'

/** how long a list waits for servers still starting */
const SETTLE_MS = 10_000

const about = (s: string | undefined): string =>
  s ? ` — ${stripControls(s).replace(/\s+/g, ' ').slice(0, 200)}` : ''

function errorsOf(errors: { server: string; message: string }[]): string[] {
  return errors.map(
    (e) => `  (${stripControls(e.server)} could not list them: ${stripControls(e.message)})`,
  )
}

export async function listResources(
  tools: ToolRuntime,
  streams: Streams,
  signal: AbortSignal,
): Promise<void> {
  await tools.manager.settled(SETTLE_MS)
  if (signal.aborted) return
  const { resources, templates, errors } = await tools.catalog.resources()
  const lines: string[] = []
  for (const r of resources) {
    lines.push(
      `  @${stripControls(r.server)}:${stripControls(r.uri)}  ${stripControls(r.title ?? r.name)}${about(r.description)}`,
    )
  }
  for (const t of templates) {
    lines.push(
      `  @${stripControls(t.server)}:${stripControls(t.uriTemplate)}  ${stripControls(t.title ?? t.name)} (fill in ${t.variables.map(stripControls).join(', ')})${about(t.description)}`,
    )
  }
  const head =
    lines.length > 0
      ? 'Resources (put @server:uri in a message to attach one):'
      : 'No running MCP server offers resources.'
  streams.stderr.write(`${[head, ...lines, ...errorsOf(errors)].join('\n')}\n`)
}

export async function listPrompts(
  tools: ToolRuntime,
  streams: Streams,
  signal: AbortSignal,
): Promise<void> {
  await tools.manager.settled(SETTLE_MS)
  if (signal.aborted) return
  const { prompts, errors } = await tools.catalog.prompts()
  const lines = prompts.map((p) => {
    const args = p.arguments
      .map((a) => `${stripControls(a.name)}=…${a.required ? '' : ' (optional)'}`)
      .join(' ')
    return `  /${stripControls(p.server)}:${stripControls(p.name)}${args ? ` ${args}` : ''}${about(p.description)}`
  })
  const head = lines.length > 0 ? 'Prompts:' : 'No running MCP server offers prompts.'
  streams.stderr.write(`${[head, ...lines, ...errorsOf(errors)].join('\n')}\n`)
}
