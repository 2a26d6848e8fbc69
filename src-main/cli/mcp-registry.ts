/**
 * `cairn mcp search <words>` and `cairn mcp install <registry name>`: servers of the MCP
 * registry (the setting `mcpRegistryUrl`). An install shows who published the server and
 * exactly what it will run, and adds it switched off: `cairn mcp enable` starts it after
 * review. Everything the registry says reaches the terminal through the guarded streams.
 */
import type {
  RegistryInstallOption,
  RegistryServerView,
} from '../../src-preload/contract/mcp-registry'
import { describeServer, parseServerConfig } from '../adapters/mcp/config'
import { configFor, viewOf } from '../core/mcp-registry/install-plan'
import { McpRegistryClient } from '../core/mcp-registry/registry-client'
import type { AppServices } from '../services/host/app-services'
import { keyValuePairs, UsageError, type CliOptions } from './args'
import type { Streams } from './output'

function client(app: AppServices): McpRegistryClient {
  return new McpRegistryClient(app.settings.get().mcpRegistryUrl, fetch)
}

/** `cairn mcp search <words>` */
export async function searchRegistry(
  app: AppServices,
  words: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const query = words.join(' ').trim()
  if (!query) throw new UsageError('cairn mcp search needs words to look for')
  const found = await client(app).search(query)
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  if (options.json) {
    out(JSON.stringify(found))
    return 0
  }
  if (found.servers.length === 0)
    out(`Nothing in the MCP registry at ${found.registry} matches "${query}".`)
  for (const s of found.servers) {
    const status = s.status && s.status !== 'active' ? `  [${s.status}]` : ''
    out(`${s.name}  ${s.version}  (${s.kinds.join(', ') || 'nothing to run'})${status}`)
    if (s.description) out(`  ${s.description.split('\n')[0]}`)
    out(`  published by ${s.publisher.verifiedAs}`)
  }
  if (found.leftOut > 0)
    out(
      `(${found.leftOut} entr${found.leftOut === 1 ? 'y' : 'ies'} the registry sent could not be read and are left out)`,
    )
  if (found.servers.length > 0) out('\nInstall one with: cairn mcp install <name>')
  return 0
}

function optionLines(o: RegistryInstallOption): string[] {
  const lines = [
    `  ${o.id}: ${o.kind === 'remote' ? `remote (${o.type})` : `${o.type} package`} ${o.target}${o.version ? ` ${o.version}` : ''}`,
  ]
  if (o.refused) return [...lines, `    not installable: ${o.refused}`]
  if (o.command) lines.push(`    runs:     ${[o.command, ...o.args].join(' ')}`)
  if (o.url) lines.push(`    connects: ${o.url}`)
  for (const i of o.inputs) {
    const flag = i.kind === 'header' ? '--header' : '--env'
    const marks = [i.required ? 'required' : 'optional', ...(i.secret ? ['secret'] : [])].join(', ')
    const how = i.kind === 'argument' ? `${i.id}=…` : `${i.name}=…`
    lines.push(
      `    ${i.kind} ${i.name} (${marks})${i.description ? `: ${i.description}` : ''}  [${flag} ${how}]`,
    )
  }
  return lines
}

function review(v: RegistryServerView): string[] {
  return [
    `${v.name} ${v.version}${v.title ? ` — ${v.title}` : ''}`,
    ...(v.description ? [`  ${v.description}`] : []),
    `  publisher: ${v.publisher.verifiedAs} (namespace ${v.publisher.namespace}, verified by the registry)`,
    ...(v.publisher.repository ? [`  source:    ${v.publisher.repository}`] : []),
    ...(v.status && v.status !== 'active' ? [`  status:    ${v.status}`] : []),
    'Ways to run it:',
    ...v.options.flatMap(optionLines),
  ]
}

/** `cairn mcp install <registry name>`: reviewed on the terminal, added switched off */
export async function installFromRegistry(
  app: AppServices,
  registryName: string | undefined,
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  if (!registryName)
    throw new UsageError('cairn mcp install needs a registry name (cairn mcp search finds one)')
  const answer = await client(app).server(registryName)
  const configured = (n: string): boolean => n in app.settings.get().mcpServers
  const view = viewOf(answer, configured)
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  out(review(view).join('\n'))
  const option = options.use
    ? view.options.find((o) => o.id === options.use)
    : view.options.find((o) => !o.refused)
  if (!option)
    throw new UsageError(
      options.use
        ? `${registryName} has no way to run called "${options.use}"`
        : `Cairn cannot install ${registryName}: none of its ways to run is one it accepts (see above)`,
    )
  const name = options.assistantFields.name ?? view.suggestedName
  if (configured(name))
    throw new UsageError(`an MCP server named "${name}" exists already; give another with --name`)
  const config = configFor(answer.server, option.id, valuesOf(options))
  const entry = parseServerConfig(name, config)
  app.settings.updateSync((s) => {
    s.mcpServers = { ...s.mcpServers, [name]: entry as unknown as Record<string, unknown> }
  })
  out(`\nAdded "${name}" (${option.id}), switched off: ${describeServer(entry)}`)
  out(`Check what it runs above, then start it with: cairn mcp enable ${name}`)
  return 0
}

/** `--env NAME=value` sets a variable, `--env arg:N=value` an argument, `--header NAME=value` a header */
function valuesOf(options: CliOptions): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [k, v] of Object.entries(keyValuePairs(options.env, '--env')))
    values[k.startsWith('arg:') ? k : `env:${k}`] = v
  for (const [k, v] of Object.entries(keyValuePairs(options.headers, '--header')))
    values[`header:${k}`] = v
  return values
}
