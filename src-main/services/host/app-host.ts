/**
 * Everything a UI host (the Electron app, browser mode) runs, assembled in one place: the
 * services on the data directory, the MCP servers and built-in tools, running turns,
 * pending approvals, the router for requests and the hub for events. A composition file:
 * the adapters the handlers reach through ports are made here.
 */
import { writeFileAtomic } from '../../adapters/atomic-file'
import { AddressRefused, openInBrowser } from '../../adapters/mcp/browser-opener'
import { mcpServerConfigs, readMcpConfigFile } from '../../adapters/mcp/config'
import { mcpLogins } from '../../adapters/mcp/oauth-login'
import { ExtensionStore } from '../../adapters/mcpb/extensions'
import { LocalSkills, skillRoots } from '../../adapters/skills/local-skills'
import { skillHandlers } from '../handlers/skills'
import { setDamagedDatabaseAside } from '../../adapters/sqlite/open-errors'
import type { SecretCodec } from '../../adapters/settings/secrets'
import type { SettingsStoreFactory } from '../../adapters/settings/settings-store'
import {
  createRouter,
  internalErrorLine,
  newErrorId,
  type Handlers,
  type Router,
} from '../../ipc/router'
import { openAppServices, type AppServices } from './app-services'
import type { RuntimeLauncher } from '../providers/local-runtime'
import { ApprovalBroker } from './approvals'
import { ElicitationBroker } from './elicitations'
import { EventHub } from './event-hub'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { chatHandlers } from '../handlers/chat'
import { attachmentHandlers } from '../handlers/attachments'
import { AttachmentInbox } from '../attachments/attachment-inbox'
import { PickedFiles } from '../attachments/picked-files'
import { ImportRuns } from '../sessions/import-runs'
import { importHandlers } from '../handlers/imports'
import type { ImportFile } from '../../../src-preload/contract/routes'
import type {
  ConfirmCommand,
  ConfirmNewDatabase,
  HandlerContext,
  DesktopShell,
  NativeDialogs,
  OpenAuthorization,
} from '../handlers/handler-context'
import { appHandlers } from '../handlers/app'
import { desktopHandlers } from '../handlers/desktop'
import { approvalHandlers } from '../handlers/approvals'
import { assistantHandlers } from '../handlers/assistants'
import { projectHandlers } from '../handlers/projects'
import { elicitationHandlers } from '../handlers/elicitations'
import { logHandlers } from '../handlers/logs'
import { usageHandlers } from '../handlers/usage'
import { mcpHandlers } from '../handlers/mcp'
import { messageHandlers } from '../handlers/messages'
import { sessionHandlers } from '../handlers/sessions'
import { providerHandlers } from '../handlers/providers'
import { modelHandlers } from '../handlers/models'
import { settingsHandlers } from '../handlers/settings'
import { toolHandlers } from '../handlers/tools'
import { startToolRuntime } from '../tools/tool-runtime'
import { TurnManager } from '../turns/turn-manager'
import { voiceHandlers } from '../handlers/voice'
import { startVoiceService } from '../voice/voice-service'
import { withdrawSecretEnv } from './secret-env'
import { ViewDocuments } from './view-documents'

export interface AppHostOptions {
  dataDir: string
  hostKind: 'electron' | 'web'
  version: string
  /** provider variables (CAIRN_BASE_URL …) are read from here (default: process.env) */
  env?: NodeJS.ProcessEnv
  /** `--mcp-config`: replaces the configured MCP servers for this run */
  mcpConfigFile?: string
  /** how API keys are stored (desktop: Electron's safeStorage) */
  secretsCodec?: SecretCodec
  /** the better-sqlite3 binary built for Electron */
  nativeBinding?: string
  /** opens settings.json (desktop: electron-store on the same file; default: read directly) */
  settingsStoreFactory?: SettingsStoreFactory
  onWarning?: (message: string) => void
  /** starts the local model runtime's process (none: local models cannot run in this host) */
  localRuntimeLauncher?: RuntimeLauncher
  /** how long a pending approval waits with no renderer attached before it is denied (default 30 s) */
  orphanApprovalMs?: number
  /**
   * Asks the user before an MCP server's command runs, outside the renderer (the desktop
   * app's native dialog); without it the renderer must send the confirmed fingerprint
   */
  confirmCommand?: ConfirmCommand
  /** the system's folder and save dialogs (the desktop app) */
  dialogs?: NativeDialogs
  /** the tray, Quick ask and its global shortcut (the desktop app) */
  desktop?: DesktopShell
  /** shows a server's login address, then opens it (the desktop app); default: the system's browser */
  openAuthorization?: OpenAuthorization
  /**
   * Asks the user, outside the page, whether to move a damaged database aside and start a
   * new one (the desktop app's native dialog); without it the page asks before it sends
   * `app.replaceDamagedDatabase`
   */
  confirmNewDatabase?: ConfirmNewDatabase
}

export interface AppHost {
  router: Router
  hub: EventHub
  /** tools' views (MCP Apps) ready to load: the host that serves the page serves them too */
  views: ViewDocuments
  /** offers a file the page uploaded for import (browser mode's `POST /upload-import`) */
  offerImport(file: string, name: string): Promise<ImportFile>
  /** stops running turns (partial text saved, tool calls answered), the MCP servers, the database */
  shutdown(): Promise<void>
}

/** The engine on one database: what `app.replaceDamagedDatabase` stops and opens again. */
export interface Engine {
  handlers: Handlers
  /** the imports started in the window */
  imports: ImportRuns
  /** stops the voice service, the turns and the tools, then closes the services */
  stop(): Promise<void>
}

/** What the engine takes from the host's options. */
export type EngineOptions = Pick<
  AppHostOptions,
  | 'hostKind'
  | 'version'
  | 'mcpConfigFile'
  | 'orphanApprovalMs'
  | 'confirmCommand'
  | 'dialogs'
  | 'desktop'
  | 'openAuthorization'
  | 'confirmNewDatabase'
>

export interface EngineDeps {
  /** the host's environment, without the keys (`withdrawSecretEnv`) */
  env: NodeJS.ProcessEnv
  hub: EventHub
  warn: (message: string) => void
  /** where `mcp.openView` keeps views' documents for the host to serve (default: a new store) */
  views?: ViewDocuments
  replaceDatabase?: () => Promise<string>
}

/** Opens everything on the data directory; MCP servers start in the background. */
export async function createAppHost(opts: AppHostOptions): Promise<AppHost> {
  const warn = opts.onWarning ?? (() => {})
  // the keys live in this copy only: commands and servers started later never inherit them
  const env = withdrawSecretEnv(opts.env ?? process.env)
  const hub = new EventHub()
  const views = new ViewDocuments()
  let replacing: Promise<string> | null = null
  /**
   * A query found the database damaged and the user agreed: everything on it stops, it is
   * moved aside (kept, for recovery) and the engine opens again on a new, empty one. The
   * router and the hub stay, so the window keeps its connection.
   */
  const replaceDatabase = (): Promise<string> =>
    (replacing ??= (async () => {
      try {
        await engine.stop()
        const aside = setDamagedDatabaseAside(opts.dataDir)
        warn(`The damaged database was moved to ${aside}; a new one is started.`)
        engine = await assemble()
        hub.publish({ event: 'sessions.changed', payload: { sessionId: null } })
        return aside
      } finally {
        replacing = null
      }
    })())
  const assemble = (): Promise<Engine> =>
    startEngine(
      openAppServices(opts.dataDir, {
        onWarning: warn,
        ...(opts.secretsCodec ? { secretsCodec: opts.secretsCodec } : {}),
        ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
        ...(opts.settingsStoreFactory ? { settingsStoreFactory: opts.settingsStoreFactory } : {}),
        ...(opts.localRuntimeLauncher ? { localRuntimeLauncher: opts.localRuntimeLauncher } : {}),
        onRuntimeLog: (line) => warn(`Local model runtime: ${line}`),
      }),
      opts,
      { env, hub, warn, views, replaceDatabase },
    )
  let engine = await assemble()
  // every route answers from the engine of the moment
  const handlers = Object.fromEntries(
    Object.keys(engine.handlers).map((route) => [
      route,
      (input: unknown) =>
        (engine.handlers as Record<string, (input: unknown) => Promise<unknown>>)[route]!(input),
    ]),
  ) as Handlers
  const router = createRouter(handlers, (route, e, id) => warn(internalErrorLine(route, e, id)))
  let closing: Promise<void> | null = null
  return {
    router,
    hub,
    views,
    offerImport: (file, name) => engine.imports.offer(file, { name, temporary: true }),
    shutdown: () =>
      (closing ??= (async () => {
        await replacing?.catch(() => undefined)
        await engine.stop()
      })()),
  }
}

/**
 * The engine on `app` (the data directory's services, or in tests in-memory ones): the
 * tools, the turns, the approval and elicitation brokers, voice, and every route's handler.
 */
export async function startEngine(
  app: AppServices,
  opts: EngineOptions,
  { env, hub, warn, views, replaceDatabase }: EngineDeps,
): Promise<Engine> {
  const override = opts.mcpConfigFile ? readMcpConfigFile(opts.mcpConfigFile) : undefined
  app.downloads.onChange((d) => hub.publish({ event: 'models.download', payload: d }))
  const tools = await startToolRuntime(app, {
    ...(override ? { override } : {}),
    warn,
    onStatus: (info) => hub.publish({ event: 'mcp.status', payload: info }),
  })
  tools.resourcesAndPrompts.onChange((change) =>
    hub.publish({ event: 'mcp.listChanged', payload: change }),
  )
  const approvals = new ApprovalBroker(hub, opts.orphanApprovalMs ?? 30_000)
  const elicitations = new ElicitationBroker(hub, opts.orphanApprovalMs ?? 30_000)
  const turns = new TurnManager(
    app,
    tools,
    approvals,
    hub,
    env,
    opts.hostKind === 'web' ? 'web' : 'desktop',
    elicitations,
    turnBugLogger(warn),
  )
  const voice = startVoiceService({ app, tools, turns, hub })
  const context: HandlerContext = {
    app,
    tools,
    mcpConfigs: mcpServerConfigs,
    mcpLogins: mcpLogins(app.secrets, opts.version, () => app.settings.get().mcp.clientMetadataUrl),
    mcpExtensions: new ExtensionStore(app.dataDir),
    skills: () => new LocalSkills(skillRoots(app.dataDir), warn),
    skillsFolder: join(app.dataDir, 'skills'),
    writeFile: writeMakingFolder,
    turns,
    attachmentInbox: new AttachmentInbox(),
    pickedFiles: new PickedFiles(),
    imports: importRuns(app, hub, warn),
    approvals,
    elicitations,
    hub,
    env,
    hostKind: opts.hostKind,
    version: opts.version,
    mcpOverride: override !== undefined,
    confirmCommand: opts.confirmCommand ?? null,
    dialogs: opts.dialogs ?? null,
    desktop: opts.desktop ?? null,
    openAuthorization: opts.openAuthorization ?? systemBrowser(env),
    confirmNewDatabase: opts.confirmNewDatabase ?? null,
    views: views ?? new ViewDocuments(),
    ...(replaceDatabase ? { replaceDatabase } : {}),
  }
  const handlers: Handlers = {
    ...appHandlers(context),
    ...desktopHandlers(context),
    ...approvalHandlers(context),
    ...assistantHandlers(context),
    ...projectHandlers(context),
    ...attachmentHandlers(context),
    ...importHandlers(context),
    ...chatHandlers(context),
    ...elicitationHandlers(context),
    ...logHandlers(context),
    ...mcpHandlers(context),
    ...messageHandlers(context),
    ...modelHandlers(context),
    ...providerHandlers(context),
    ...sessionHandlers(context),
    ...settingsHandlers(context),
    ...toolHandlers(context),
    ...usageHandlers(context),
    ...skillHandlers(context),
    ...voiceHandlers(voice),
  }
  let stopping: Promise<void> | null = null
  return {
    handlers,
    imports: context.imports,
    stop: () =>
      (stopping ??= (async () => {
        // before the servers stop: the voice server's session is closed, not left open
        await voice.shutdown()
        await turns.shutdown()
        await tools.shutdown()
        await app.rules.flushed()
        await app.calibration?.flushed()
        app.close()
      })()),
  }
}

/** a bug that ends a turn is logged like a route's, with the id the window shows */
function turnBugLogger(warn: (m: string) => void): (e: unknown) => string {
  return (e) => {
    const id = newErrorId()
    warn(internalErrorLine('turn', e, id))
    return id
  }
}

/** writes a file atomically, making its folder first */
async function writeMakingFolder(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFileAtomic(file, content)
}

/** the imports started in the window: events for their progress, the sidebar told at the end */
function importRuns(app: AppServices, hub: EventHub, warn: (m: string) => void): ImportRuns {
  return new ImportRuns(
    app.imports,
    (run) => hub.publish({ event: 'imports.progress', payload: run }),
    () => hub.publish({ event: 'sessions.changed', payload: { sessionId: null } }),
    (e) => {
      const id = newErrorId()
      warn(internalErrorLine('imports.start', e, id))
      return id
    },
  )
}

/**
 * Opens a server's login address in the system's browser: the engine runs on the user's
 * computer in every host, so its browser is theirs. An address refused fails the login; no
 * browser found does not: the window shows the address too, to open by hand.
 */
function systemBrowser(env: NodeJS.ProcessEnv): OpenAuthorization {
  return async (_server, url) => {
    await openInBrowser(url, { purpose: 'login', env }).catch((e: unknown) => {
      if (e instanceof AddressRefused) throw e
    })
    return true
  }
}
