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
import type { AppServices } from '../services/host/app-services'
import { startToolRuntime } from '../services/tools/tool-runtime'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'

function pairs(list: string[], flag: string): Record<string, string> | undefined {
  if (list.length === 0) return undefined
  const out: Record<string, string> = {}
  for (const item of list) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new UsageError(`${flag} takes KEY=VALUE, not "${item}"`)
    out[item.slice(0, eq)] = item.slice(eq + 1)
  }
  return out
}

function serverBlock(s: McpServerInfo): string {
  const lines = [`${s.name}  ${s.enabled ? s.state : 'disabled'}  (${s.transport})`]
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

/** `cairn mcp …`. Returns the exit code. */
export async function mcpCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const [sub, name, ...rest] = args
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  const needName = (): string => {
    if (!name) throw new UsageError(`cairn mcp ${sub} needs a server name`)
    return name
  }
  const servers = (): Record<string, unknown> => app.settings.get().mcpServers
  const mustExist = (n: string): void => {
    if (!(n in servers()))
      throw new UsageError(`there is no MCP server named "${n}"; \`cairn mcp list\` shows them`)
  }
  const setServer = (
    n: string,
    change: (entry: Record<string, unknown>) => Record<string, unknown> | null,
  ): void => {
    app.settings.updateSync((s) => {
      const next = { ...s.mcpServers }
      const updated = change({ ...((next[n] as Record<string, unknown> | undefined) ?? {}) })
      if (updated === null) delete next[n]
      else next[n] = updated
      s.mcpServers = next
    })
  }

  switch (sub) {
    case 'list': {
      const warn = (m: string): void => void streams.stderr.write(`Warning: ${m}\n`)
      const override = options.mcpConfig ? readMcpConfigFile(options.mcpConfig) : undefined
      const runtime = await startToolRuntime(app, { ...(override ? { override } : {}), warn })
      try {
        await runtime.manager.settled(30_000)
        const list = runtime.servers()
        if (options.json) out(JSON.stringify({ servers: list }))
        else if (list.length === 0)
          out(
            'No MCP servers are configured. Add one with: cairn mcp add <name> -- <command> [args…]',
          )
        else out(list.map(serverBlock).join('\n\n'))
        return 0
      } finally {
        await runtime.shutdown()
      }
    }
    case 'add': {
      const n = needName()
      if (n in servers())
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
      setServer(n, () => config as unknown as Record<string, unknown>)
      out(`Added the MCP server "${n}": ${describeServer(config)}`)
      return 0
    }
    case 'remove': {
      const n = needName()
      mustExist(n)
      const removed = servers()[n] as Record<string, unknown> | undefined
      setServer(n, () => null)
      forgetUnusedLogin(removed, servers() as Record<string, Record<string, unknown>>, app.secrets)
      out(`Removed the MCP server "${n}".`)
      return 0
    }
    case 'enable':
    case 'disable': {
      const n = needName()
      mustExist(n)
      setServer(n, (e) => {
        if (sub === 'enable') delete e['disabled']
        else e['disabled'] = true
        return e
      })
      const entry = servers()[n]
      out(
        `${sub === 'enable' ? 'Enabled' : 'Disabled'} "${n}": ${describeServer(parseServerConfig(n, entry))}`,
      )
      return 0
    }
    case 'trust':
    case 'untrust': {
      const n = needName()
      mustExist(n)
      setServer(n, (e) => ({ ...e, trustAnnotations: sub === 'trust' }))
      out(
        sub === 'trust'
          ? `Cairn now believes the read-only hints of "${n}": with --approve read-only its read-only tools run without asking.`
          : `Cairn no longer believes the read-only hints of "${n}".`,
      )
      return 0
    }
    case 'login':
    case 'logout': {
      const n = needName()
      const override = options.mcpConfig ? readMcpConfigFile(options.mcpConfig) : undefined
      const { mcpLogin } = await import('./mcp-login')
      return await mcpLogin(
        app,
        override ?? configuredServers(servers(), () => {}),
        n,
        sub === 'logout',
        streams,
      )
    }
    case 'import-claude': {
      const file = options.file ?? claudeDesktopConfigPath()
      let imported
      try {
        imported = importClaudeDesktop(file)
      } catch (e) {
        streams.stderr.write(`${(e as McpConfigError).message}\n`)
        return 1
      }
      const existing = configuredServers(servers(), () => {})
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
    default:
      throw new UsageError(
        sub
          ? `unknown mcp command "${sub}"`
          : 'cairn mcp needs a command: list, add, remove, enable, disable, trust, untrust, login, logout or import-claude',
      )
  }
}
