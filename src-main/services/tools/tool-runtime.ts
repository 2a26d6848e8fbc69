/**
 * A composition file: the tools every host runs, the MCP servers (started in the
 * background when the host starts) and the built-in set, combined into the ToolHost a turn
 * uses, and handed out as the `ToolRuntime` port.
 */
import { join } from 'node:path'
import type { BuiltinToolInfo } from '../../../src-preload/contract/app-dto'
import type { McpServerInfo } from '../../../src-preload/contract/dto'
import { CompositeToolHost } from '../../core/tools/composite-host'
import type { ToolSource } from '../../core/tools/tool-source'
import type { McpServersConfig } from '../../core/mcp-ports'
import { fillSecretValues } from '../../core/mcpb/install-plan'
import type { ToolRuntime } from '../../core/service-ports'
import { BuiltinTools, defaultWorkspace, type KnowledgeScope } from '../../adapters/builtin-tools'
import { LocalSkills, skillRoots } from '../../adapters/skills/local-skills'
import { configuredServers } from '../../adapters/mcp/config'
import { stdioLauncher } from '../../adapters/mcp/launch'
import { ResourcesAndPrompts } from '../../adapters/mcp/resources-and-prompts'
import { McpManager } from '../../adapters/mcp/manager'
import { McpAuthStore } from '../../adapters/mcp/oauth-store'
import { ProcessRegistry } from '../../adapters/mcp/process-registry'
import { signalGroup } from '../../adapters/mcp/process-tree'
import type { AppServices } from '../host/app-services'
import { withoutVoiceTools } from '../voice/voice-tools'

declare const __CAIRN_VERSION__: string | undefined

/** every built-in tool, as the settings list them */
function builtinToolInfo(): BuiltinToolInfo[] {
  // with a knowledge scope, so that search_knowledge is listed too
  const knowledge = { search: () => Promise.reject(new Error('not searched')) }
  return new BuiltinTools({ workspace: defaultWorkspace, knowledge }).tools().map((t) => ({
    name: t.name,
    title: t.annotations?.title ?? t.name,
    description: t.description,
    readOnly: t.annotations?.readOnlyHint === true,
  }))
}

/** search_knowledge's scope: the sources of the session's project, when it has some */
function knowledgeScope(
  app: AppServices,
  session: { projectId?: string | null },
): KnowledgeScope | undefined {
  if (!session.projectId) return undefined
  const owner = { kind: 'project' as const, id: session.projectId }
  const kb = app.knowledge()
  if (kb.sources(owner).length === 0) return undefined
  return { search: (query, limit) => kb.search(owner, query, limit) }
}

export async function startToolRuntime(
  app: AppServices,
  opts: {
    /** replaces the configured servers for this run (`--mcp-config`) */
    override?: McpServersConfig
    onStatus?: (info: McpServerInfo) => void
    warn?: (m: string) => void
    readyTimeoutMs?: number
  } = {},
): Promise<ToolRuntime> {
  const warn = opts.warn ?? (() => {})
  const registry = new ProcessRegistry(join(app.dataDir, 'mcp-processes.json'))
  const cleaned = await registry.cleanupLeftovers().catch(() => 0)
  if (cleaned > 0)
    warn(
      `stopped ${cleaned} process group(s) (MCP servers, commands) left over from an earlier crash`,
    )
  // said once, at the first command, and only when commands are less contained than they could be
  let containmentTold = false
  const onContainment = (c: { kind: string; description: string }): void => {
    if (containmentTold || c.kind !== 'process-group' || process.platform !== 'linux') return
    containmentTold = true
    warn(c.description)
  }
  const resourcesAndPrompts = new ResourcesAndPrompts(() => manager.sources())
  const manager = new McpManager({
    launchStdio: stdioLauncher({
      registry,
      env: process.env,
      // an installed extension's sensitive settings live with the API keys, not in its entry
      prepare: (name, config) =>
        config.extension ? fillSecretValues(config, app.secrets.getMcpValues(name) ?? {}) : config,
    }),
    clientVersion: typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : 'dev',
    ...(opts.onStatus ? { onChange: opts.onStatus } : {}),
    maxToolsPerServer: () => app.settings.get().limits.maxToolsPerServer,
    onWarning: warn,
    onConnected: (server, client) => resourcesAndPrompts.attach(server, client),
    oauthStore: new McpAuthStore(app.secrets),
    clientMetadataUrl: () => app.settings.get().mcp.clientMetadataUrl,
  })
  manager.apply(opts.override ?? configuredServers(app.settings.get().mcpServers, warn))
  // an abrupt exit (a second Ctrl-C) must not leave server process groups behind
  const killAll = (): void => {
    for (const s of manager.list())
      if (s.pid && s.transport === 'stdio') signalGroup(s.pid, 'SIGKILL')
  }
  process.on('exit', killAll)
  const readyTimeoutMs = opts.readyTimeoutMs ?? 10_000
  return {
    manager,
    resourcesAndPrompts,
    hostFor(session) {
      const settings = app.settings.get()
      // read once per turn, not on every tool call (settings live in a file)
      const workspace = session.workspace ?? settings.defaultWorkspace ?? defaultWorkspace()
      const knowledge = knowledgeScope(app, session)
      const builtin = new BuiltinTools({
        workspace: () => workspace,
        ...(knowledge ? { knowledge } : {}),
        disabled: settings.builtinTools.disabled,
        store: app.store,
        fetchAllowedHosts: settings.toolAccess.fetchAllowedHosts,
        commandEnv: settings.toolAccess.commandEnv,
        processRegistry: registry,
        onContainment,
        skills: new LocalSkills(
          skillRoots(app.dataDir, {
            assistantId: session.assistant?.id ?? null,
            projectId: session.projectId ?? null,
          }),
          warn,
        ),
      })
      // the voice servers' speech-to-text tools are Cairn's own, never the model's
      const sources = (): ToolSource[] => manager.sources().map(withoutVoiceTools)
      return new CompositeToolHost(sources, { readyTimeoutMs, builtin })
    },
    builtins: builtinToolInfo,
    servers: () => manager.list(),
    shutdown: async () => {
      await manager.shutdown()
      process.off('exit', killAll)
    },
  }
}
