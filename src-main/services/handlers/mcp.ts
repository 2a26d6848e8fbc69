import { existsSync } from 'node:fs'
import type { McpServerDraft, McpServerInfo } from '../../../src-preload/contract/dto'
import { McpConfigError } from '../../adapters/mcp/config'
import type { McpServerConfig, McpServersConfig } from '../../core/mcp-ports'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

type McpRoutes =
  | 'mcp.list'
  | 'mcp.add'
  | 'mcp.update'
  | 'mcp.remove'
  | 'mcp.restart'
  | 'mcp.logs'
  | 'mcp.parse'
  | 'mcp.importClaude'

export function mcpHandlers(c: HandlerContext): Pick<Handlers, McpRoutes> {
  const configs = c.mcpConfigs
  const servers = (): McpServerInfo[] => c.tools.servers()
  const stored = (): Record<string, Record<string, unknown>> => c.app.settings.get().mcpServers
  const find = (name: string): McpServerInfo => {
    const s = servers().find((x) => x.name === name)
    if (!s) throw new ExpectedError('not_found', `There is no MCP server named "${name}".`)
    return s
  }
  const editable = (): void => {
    if (c.mcpOverride) {
      throw new ExpectedError(
        'conflict',
        'The MCP servers of this run come from --mcp-config; change that file instead.',
      )
    }
  }
  /** Saves the settings' servers and applies them: only the servers that changed restart. */
  const save = async (
    change: (all: Record<string, Record<string, unknown>>) => void,
  ): Promise<McpServerInfo[]> => {
    await c.app.settings.update((s) => {
      const next = { ...s.mcpServers }
      change(next)
      // a configured OAuth client's secret is kept with the API keys, not in the settings
      for (const [n, entry] of Object.entries(next)) next[n] = c.mcpLogins.keepClientSecret(entry)
      s.mcpServers = next
    })
    c.tools.manager.apply(configs.fromSettings(stored(), () => {}))
    return servers()
  }
  const toConfig = (name: string, raw: unknown): McpServerConfig => {
    try {
      return configs.parse(name, raw)
    } catch (e) {
      throw new ExpectedError('bad_request', (e as Error).message)
    }
  }
  const drafts = (found: McpServersConfig): McpServerDraft[] =>
    Object.entries(found).map(([name, config]) => ({
      name,
      config,
      command: configs.describe(config),
      commandLine: configs.commandLine(config),
      exists: name in stored(),
    }))

  /**
   * The MCP spec's consent rule: a command runs on this computer only after the user saw
   * its complete command line and allowed it. Asked when a stdio server is about to run a
   * command it did not run before (enabled, or enabled with a changed configuration).
   */
  const consent = async (
    name: string,
    before: unknown,
    next: McpServerConfig,
    confirmed: string | undefined,
  ): Promise<void> => {
    const line = configs.commandLine(next)
    if (!line || next.disabled === true) return
    let prev: McpServerConfig | null = null
    try {
      prev = configs.parse(name, before)
    } catch {
      prev = null
    }
    if (prev && prev.disabled !== true && configs.fingerprint(prev) === line.fingerprint) return
    if (c.confirmCommand) {
      // the desktop app: the main process asks; whatever the renderer sent does not count
      const allowed = await c.confirmCommand({
        server: name,
        command: line.command,
        args: line.args,
        envNames: line.envNames,
        cwd: line.cwd,
      })
      if (!allowed)
        throw new ExpectedError('forbidden', `"${name}" was not started: its command was not allowed.`)
      return
    }
    if (confirmed === undefined)
      throw new ExpectedError(
        'forbidden',
        `Starting "${name}" runs a command on this computer: confirm its full command line first.`,
      )
    if (confirmed !== line.fingerprint)
      throw new ExpectedError(
        'forbidden',
        `The command line of "${name}" is not the one that was confirmed (it has changed): review it again.`,
      )
  }

  return {
    'mcp.list': async () => ({ servers: servers(), fromFile: c.mcpOverride }),
    // A server added from the UI (typed or pasted JSON) starts disabled: the user sees its
    // exact command, arguments and environment variable names, then enables it.
    'mcp.add': async ({ name, config }) => {
      editable()
      if (name in stored())
        throw new ExpectedError('conflict', `An MCP server named "${name}" exists already.`)
      const entry = toConfig(name, { ...config, disabled: true })
      return {
        servers: await save((all) => (all[name] = entry as unknown as Record<string, unknown>)),
      }
    },
    'mcp.update': async ({ name, config, enabled, trustAnnotations, confirmedFingerprint }) => {
      editable()
      const current = stored()[name]
      if (!current) throw new ExpectedError('not_found', `There is no MCP server named "${name}".`)
      const next: Record<string, unknown> = { ...(config ?? current) }
      // a changed command is not run until it is enabled again (after review)
      if (config) next['disabled'] = true
      if (enabled !== undefined) {
        if (enabled) delete next['disabled']
        else next['disabled'] = true
      }
      if (trustAnnotations !== undefined) next['trustAnnotations'] = trustAnnotations
      const entry = toConfig(name, next)
      await consent(name, current, entry, confirmedFingerprint)
      // the user may have taken a while: what was confirmed must still be what is stored
      if (JSON.stringify(stored()[name]) !== JSON.stringify(current))
        throw new ExpectedError('conflict', `"${name}" was changed meanwhile: review it again.`)
      return {
        servers: await save((all) => (all[name] = entry as unknown as Record<string, unknown>)),
      }
    },
    'mcp.remove': async ({ name }) => {
      editable()
      if (!(name in stored()))
        throw new ExpectedError('not_found', `There is no MCP server named "${name}".`)
      const removed = stored()[name]
      const list = await save((all) => delete all[name])
      c.mcpLogins.forgetUnusedLogin(removed, stored())
      return { servers: list }
    },
    'mcp.restart': async ({ name }) => {
      find(name)
      if (!(await c.tools.manager.restart(name)))
        throw new ExpectedError('conflict', `The MCP server "${name}" is disabled.`)
      return { server: find(name) }
    },
    'mcp.logs': async ({ name }) => ({ name, stderrTail: find(name).stderrTail }),
    'mcp.parse': async ({ text, name }) => {
      try {
        return { servers: drafts(configs.parseText(text, name)) }
      } catch (e) {
        if (e instanceof McpConfigError) throw new ExpectedError('bad_request', e.message)
        throw e
      }
    },
    'mcp.importClaude': async () => {
      const file = configs.claudeDesktopFile(c.env)
      if (!existsSync(file))
        throw new ExpectedError('not_found', `Claude Desktop's configuration is not at ${file}.`)
      try {
        return { file, servers: drafts(configs.importClaudeDesktop(file)) }
      } catch (e) {
        if (e instanceof McpConfigError) throw new ExpectedError('bad_request', e.message)
        throw e
      }
    },
  }
}
