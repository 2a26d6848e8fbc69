import type { McpServerInfo } from '../../src-preload/contract/dto'
import type { McpConfigError } from '../adapters/mcp/config'
import {
  claudeDesktopConfigPath,
  configuredServers,
  describeServer,
  importClaudeDesktop,
  parseServerConfig,
  readMcpConfigFile,
} from '../adapters/mcp/config'
import { forgetUnusedLogin, McpAuthStore, moveClientSecret } from '../adapters/mcp/oauth-store'
import { ExtensionStore } from '../adapters/mcpb/extensions'
import type { AppServices } from '../services/host/app-services'
import { startToolRuntime } from '../services/tools/tool-runtime'
import { keyValuePairs, UsageError, type CliOptions } from './args'
import type { Streams } from './output'

function pairs(list: string[], flag: string): Record<string, string> | undefined {
  return list.length === 0 ? undefined : keyValuePairs(list, flag)
}

function serverBlock(s: McpServerInfo): string {
  const speaks = s.protocolVersion ? `, MCP ${s.protocolVersion}` : ''
  const lines = [`${s.name}  ${s.enabled ? s.state : 'disabled'}  (${s.transport}${speaks})`]
  lines.push(`  command:  ${s.command}`)
  if (s.resolvedCommand && s.transport === 'stdio') lines.push(`  resolved: ${s.resolvedCommand}`)
  if (s.trustAnnotations) lines.push('  trusted:  its read-only hints are believed')
  if (s.error) lines.push(`  error:    ${s.error}`)
  if (s.tools.length > 0) {
    lines.push(`  tools (${s.tools.length}):`)
    const ro = s.trustAnnotations ? ' (read-only)' : ' (says read-only; not trusted)'
    for (const t of s.tools)
      lines.push(
        `    ${t.name}${t.readOnly ? ro : ''}  ${t.description.split('\n')[0]?.slice(0, 100) ?? ''}`,
      )
  }
  if (!s.enabled) lines.push(`  enable it after review: cairn mcp enable ${s.name}`)
  if (s.state === 'error' && s.stderrTail.trim()) {
    lines.push('  last stderr:')
    for (const l of s.stderrTail.trim().split('\n').slice(-5)) lines.push(`    ${l}`)
  }
  return lines.join('\n')
}

/** One `cairn mcp` command: the data, its flags, its arguments, where it prints. */
interface McpRun {
  app: AppServices
  options: CliOptions
  streams: Streams
  sub: string
  name: string | undefined
  rest: string[]
  out(line: string): void
}

/** `cairn mcp …`. Returns the exit code. */
export async function mcpCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const [sub, name, ...rest] = args
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  const run: McpRun = { app, options, streams, sub: sub ?? '', name, rest, out }
  switch (sub) {
    case 'list':
      return await listServers(run)
    case 'add':
      return addServer(run)
    case 'remove':
      return await removeServer(run)
    case 'enable':
    case 'disable':
      return enableServer(run, sub === 'enable')
    case 'trust':
    case 'untrust':
      return trustServer(run, sub === 'trust')
    case 'login':
    case 'logout':
      return await loginOrOut(run, sub === 'logout')
    case 'import-claude':
      return importClaude(run)
    case 'search': {
      const { searchRegistry } = await import('./mcp-registry')
      return await searchRegistry(app, [name ?? '', ...rest], options, streams)
    }
    case 'install': {
      if (name && /\.(mcpb|dxt)$/i.test(name)) {
        const { installExtension } = await import('./mcp-extension')
        return await installExtension(app, name, options, streams)
      }
      const { installFromRegistry } = await import('./mcp-registry')
      return await installFromRegistry(app, name, options, streams)
    }
    default:
      throw new UsageError(
        sub
          ? `unknown mcp command "${sub}"`
          : 'cairn mcp needs a command: list, add, remove, enable, disable, trust, untrust, login, logout, import-claude, search or install',
      )
  }
}

function needName(run: McpRun): string {
  if (!run.name) throw new UsageError(`cairn mcp ${run.sub} needs a server name`)
  return run.name
}

function servers(app: AppServices): Record<string, unknown> {
  return app.settings.get().mcpServers
}

/** the name of a configured server, or a usage error that says how to list them */
function existingName(run: McpRun): string {
  const n = needName(run)
  if (!(n in servers(run.app)))
    throw new UsageError(`there is no MCP server named "${n}"; \`cairn mcp list\` shows them`)
  return n
}

/** changes one server's entry of the settings; null removes it */
function setServer(
  app: AppServices,
  n: string,
  change: (entry: Record<string, unknown>) => Record<string, unknown> | null,
): void {
  app.settings.updateSync((s) => {
    const next = { ...s.mcpServers }
    const updated = change({ ...((next[n] as Record<string, unknown> | undefined) ?? {}) })
    if (updated === null) delete next[n]
    else next[n] = updated
    s.mcpServers = next
  })
}

/** the servers of `--mcp-config`, when it is given */
function overrideOf(options: CliOptions): ReturnType<typeof readMcpConfigFile> | undefined {
  return options.mcpConfig ? readMcpConfigFile(options.mcpConfig) : undefined
}

/** `cairn mcp list`: starts the servers and says how each is and what it offers */
async function listServers({ app, options, streams, out }: McpRun): Promise<number> {
  const warn = (m: string): void => void streams.stderr.write(`Warning: ${m}\n`)
  const override = overrideOf(options)
  const runtime = await startToolRuntime(app, { ...(override ? { override } : {}), warn })
  try {
    await runtime.manager.settled(30_000)
    const list = runtime.servers()
    if (options.json) out(JSON.stringify({ servers: list }))
    else if (list.length === 0)
      out('No MCP servers are configured. Add one with: cairn mcp add <name> -- <command> [args…]')
    else out(list.map(serverBlock).join('\n\n'))
    return 0
  } finally {
    await runtime.shutdown()
  }
}

function addServer(run: McpRun): number {
  const { app, options, rest } = run
  const n = needName(run)
  if (n in servers(app))
    throw new UsageError(`an MCP server named "${n}" exists already; remove it first`)
  const raw: Record<string, unknown> = options.url
    ? {
        url: options.url,
        ...(pairs(options.headers, '--header')
          ? { headers: pairs(options.headers, '--header') }
          : {}),
      }
    : {
        command: rest[0],
        args: rest.slice(1),
        ...(pairs(options.env, '--env') ? { env: pairs(options.env, '--env') } : {}),
      }
  if (!options.url && !rest[0])
    throw new UsageError(
      'cairn mcp add <name> -- <command> [args…], or cairn mcp add <name> --url <url>',
    )
  const config = parseServerConfig(n, raw)
  setServer(app, n, () => config as unknown as Record<string, unknown>)
  run.out(`Added the MCP server "${n}": ${describeServer(config)}`)
  return 0
}

async function removeServer(run: McpRun): Promise<number> {
  const { app } = run
  const n = existingName(run)
  const removed = servers(app)[n] as Record<string, unknown> | undefined
  setServer(app, n, () => null)
  forgetUnusedLogin(removed, servers(app) as Record<string, Record<string, unknown>>, app.secrets)
  // an installed extension goes with its server: its unpacked folder and its secrets
  app.secrets.setMcpValues(n, null)
  const folder = removed?.['extension']
  if (typeof folder === 'string') await new ExtensionStore(app.dataDir).remove(folder)
  run.out(`Removed the MCP server "${n}".`)
  return 0
}

function enableServer(run: McpRun, enable: boolean): number {
  const n = existingName(run)
  setServer(run.app, n, (e) => {
    if (enable) delete e['disabled']
    else e['disabled'] = true
    return e
  })
  const entry = servers(run.app)[n]
  run.out(
    `${enable ? 'Enabled' : 'Disabled'} "${n}": ${describeServer(parseServerConfig(n, entry))}`,
  )
  return 0
}

function trustServer(run: McpRun, trust: boolean): number {
  const n = existingName(run)
  setServer(run.app, n, (e) => ({ ...e, trustAnnotations: trust }))
  run.out(
    trust
      ? `Cairn now believes the read-only hints of "${n}": with --approve read-only its read-only tools run without asking.`
      : `Cairn no longer believes the read-only hints of "${n}".`,
  )
  return 0
}

async function loginOrOut(run: McpRun, logout: boolean): Promise<number> {
  const n = needName(run)
  const override = overrideOf(run.options)
  const { mcpLogin } = await import('./mcp-login')
  return await mcpLogin(
    run.app,
    override ?? configuredServers(servers(run.app), () => {}),
    n,
    logout,
    run.streams,
  )
}

/** `cairn mcp import-claude`: adds Claude Desktop's servers not configured yet, disabled */
function importClaude({ app, options, streams, out }: McpRun): number {
  const file = options.file ?? claudeDesktopConfigPath()
  let imported
  try {
    imported = importClaudeDesktop(file)
  } catch (e) {
    streams.stderr.write(`${(e as McpConfigError).message}\n`)
    return 1
  }
  const existing = configuredServers(servers(app), () => {})
  const added: string[] = []
  app.settings.updateSync((s) => {
    const next = { ...s.mcpServers }
    for (const [n, c] of Object.entries(imported)) {
      if (n in existing) continue
      next[n] = moveClientSecret(
        c as unknown as Record<string, unknown>,
        new McpAuthStore(app.secrets),
      )
      added.push(n)
    }
    s.mcpServers = next
  })
  if (added.length === 0) {
    out(`Nothing to import from ${file}: every server there is configured already.`)
    return 0
  }
  out(
    `Imported ${added.length} server(s) from ${file}. They are disabled until you have reviewed exactly what they run:`,
  )
  for (const n of added)
    out(`\n${n}\n  ${describeServer(imported[n]!)}\n  enable it: cairn mcp enable ${n}`)
  return 0
}
