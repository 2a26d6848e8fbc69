/**
 * `/resources` and `/prompts` in `cairn chat`: what the running MCP servers offer, as the
 * window's `@` picker and `/` commands list them (the same lists). Every name comes from a
 * server and is stripped of control sequences.
 */
import type { ToolRuntime } from '../../core/service-ports'
import { settled } from '../message-parts'
import type { Streams } from '../output'
import { stripControls } from '../terminal-text'

type ListError = { server: string; message: string }

const about = (s: string | undefined): string =>
  s ? ` — ${stripControls(s).replace(/\s+/g, ' ').slice(0, 200)}` : ''

/**
 * A list command: waits for servers still starting, then writes what `read` lists under
 * its head (`some`, or `none` when it is empty) and what servers could not list.
 */
function listFromServers(
  read: (tools: ToolRuntime) => Promise<{ lines: string[]; errors: ListError[] }>,
  some: string,
  none: string,
) {
  return async (tools: ToolRuntime, streams: Streams, signal: AbortSignal): Promise<void> => {
    await settled(tools)
    if (signal.aborted) return
    const { lines, errors } = await read(tools)
    const failed = errors.map(
      (e) => `  (${stripControls(e.server)} could not list them: ${stripControls(e.message)})`,
    )
    streams.stderr.write(`${[lines.length > 0 ? some : none, ...lines, ...failed].join('\n')}\n`)
  }
}

export const listResources = listFromServers(
  async (tools) => {
    const { resources, templates, errors } = await tools.resourcesAndPrompts.resources()
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
    return { lines, errors }
  },
  'Resources (put @server:uri in a message to attach one):',
  'No running MCP server offers resources.',
)

export const listPrompts = listFromServers(
  async (tools) => {
    const { prompts, errors } = await tools.resourcesAndPrompts.prompts()
    const lines = prompts.map((p) => {
      const args = p.arguments
        .map((a) => `${stripControls(a.name)}=…${a.required ? '' : ' (optional)'}`)
        .join(' ')
      return `  /${stripControls(p.server)}:${stripControls(p.name)}${args ? ` ${args}` : ''}${about(p.description)}`
    })
    return { lines, errors }
  },
  'Prompts:',
  'No running MCP server offers prompts.',
)
