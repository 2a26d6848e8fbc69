/**
 * A composition file: it opens the adapters on the data directory (SQLite, settings,
 * secrets, turn logs) and hands them out as the ports of `core/service-ports.ts`.
 */
import { relative, resolve } from 'node:path'
import { defaultWorkspace } from '../../adapters/builtin-tools'
import { FileTokenCalibration } from '../../adapters/calibration-file'
import { dataPaths, securePrivateDataDir } from '../../adapters/data-dir'
import {
  deleteSessionLogs,
  FileTurnLogger,
  listTurnLogs,
  pruneTurnLogs,
} from '../../adapters/logs/turn-log'
import { SettingsPermissionRules } from '../../adapters/settings/rules'
import { openSecrets, type SecretCodec } from '../../adapters/settings/secrets'
import { openSettings, type SettingsStoreFactory } from '../../adapters/settings/settings-store'
import { SqliteAssistantStore } from '../../adapters/sqlite/assistant-store'
import { SqliteProjectStore } from '../../adapters/sqlite/project-store'
import { explainOpenError } from '../../adapters/sqlite/open-errors'
import { createSessionStore } from '../../adapters/sqlite/session-store'
import { SqliteUsageLedger } from '../../adapters/sqlite/usage-ledger'
import { importInWorker } from '../../adapters/import/run-import'
import { AttachmentFiles } from '../../adapters/attachments/attachment-files'
import { attachmentService } from '../../adapters/attachments/attachment-service'
import { ModelIndex } from '../../adapters/local-models/model-index'
import { HubClient } from '../../adapters/local-models/hub'
import { KnowledgeIndex } from '../../adapters/knowledge/knowledge-index'
import { LocalRuntime, type RuntimeLauncher } from '../providers/local-runtime'
import { ProjectService } from '../projects/project-service'
import { ModelDownloads, type ModelHubSearch } from '../providers/model-downloads'
import type { TurnLogger } from '../../core/ports'
import type {
  AttachmentService,
  AssistantRepository,
  ChatImporter,
  PermissionRules,
  SavedTokenCalibration,
  SecretsStore,
  SessionRepository,
  SettingsStore,
  LocalModelStore,
  TurnLogArchive,
  UsageLedger,
  KnowledgeBase,
} from '../../core/service-ports'

/**
 * The services every host (CLI, browser mode, desktop app) runs on one data directory.
 * Opened in exactly one place, so that the hosts stay thin.
 */
export interface AppServices {
  dataDir: string
  settings: SettingsStore
  secrets: SecretsStore
  store: SessionRepository
  /** assistants, and which one each session runs with (same database) */
  assistants: AssistantRepository
  /** projects, and which one each session is in (same database) */
  projects: ProjectService
  /** the stored usage of every answer, summed for the usage report (same database) */
  usage: UsageLedger
  logger: TurnLogger
  /** the turn logs read back (the turn inspector) and deleted with their session */
  turnLogs: TurnLogArchive
  rules: PermissionRules
  /** each model's characters per token, learned from the usage servers report */
  calibration?: SavedTokenCalibration
  /** the folder the built-in file tools use when neither the session nor the settings name one */
  defaultWorkspace(): string
  /** files attached to messages (`<data dir>/attachments/`) */
  attachments: AttachmentService
  /** chats imported from export files (a worker thread writes them) */
  imports: ChatImporter
  /** the local GGUF models (`<data dir>/models/`) */
  models: LocalModelStore
  /** the process that runs them (the `local` provider), started on demand */
  localRuntime: LocalRuntime
  /** downloads of models from the hub (`localModels.hubURL`) */
  downloads: ModelDownloads
  /** the model hub at the address the settings give now */
  modelHub(): ModelHubSearch
  /** the knowledge base (`<data dir>/knowledge.db`), opened on first use */
  knowledge(): KnowledgeBase
  /** a key in use that is not stored (a flag, the environment): never written to a log */
  registerSecret(secret: string): void
  close(): void
}

export interface OpenAppServicesOptions {
  onWarning?: (message: string) => void
  /** how API keys are stored (desktop: Electron's safeStorage) */
  secretsCodec?: SecretCodec
  /** the better-sqlite3 binary built for Electron */
  nativeBinding?: string
  /** opens settings.json (desktop: electron-store on the same file; default: read directly) */
  settingsStoreFactory?: SettingsStoreFactory
  /** starts the local model runtime's process (none: this host cannot run local models) */
  localRuntimeLauncher?: RuntimeLauncher
  /** what the local runtime logs (llama.cpp's errors, models loaded and unloaded) */
  onRuntimeLog?: (line: string) => void
}

/**
 * Opens the services on `dataDir`. A directory Cairn cannot write to, or a damaged
 * database, throws a `StorageError` that says what is wrong and what to do.
 */
export function openAppServices(dataDir: string, opts: OpenAppServicesOptions = {}): AppServices {
  try {
    return open(dataDir, opts)
  } catch (e) {
    throw explainOpenError(e, dataDir) ?? e
  }
}

/** Names what was narrowed (the first three, relative to the data directory). */
export function narrowedWarning(dataDir: string, narrowed: string[]): string {
  const root = resolve(dataDir)
  const names = narrowed.slice(0, 3).map((p) => relative(root, p) || 'the folder itself')
  const more = narrowed.length > 3 ? ` and ${narrowed.length - 3} more` : ''
  const what = narrowed.length === 1 ? '1 file or folder' : `${narrowed.length} files and folders`
  return (
    `${what} in ${dataDir} (${names.join(', ')}${more}) could be read by other users; ` +
    'they are now private to you (folders 700, files 600).'
  )
}

/** The knowledge index, opened on first use (its worker starts with its first job). */
function lazyKnowledge(
  dataDir: string,
  opts: OpenAppServicesOptions,
  settings: SettingsStore,
  warn: (message: string) => void,
): { open: () => KnowledgeIndex; close: () => void } {
  let index: KnowledgeIndex | null = null
  return {
    open: () =>
      (index ??= new KnowledgeIndex({
        dataDir,
        ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
        sizeLimit: () => settings.get().knowledge.maxFileMB * 1024 * 1024,
        onWarning: warn,
      })),
    close: () => void index?.close(),
  }
}

function open(dataDir: string, opts: OpenAppServicesOptions): AppServices {
  const warn = opts.onWarning ?? (() => {})
  const narrowed = securePrivateDataDir(dataDir)
  if (narrowed.length > 0) warn(narrowedWarning(dataDir, narrowed))
  const settings = openSettings(dataDir, {
    onWarning: warn,
    ...(opts.settingsStoreFactory ? { createStore: opts.settingsStoreFactory } : {}),
  })
  const secrets = openSecrets(dataDir, {
    onWarning: warn,
    ...(opts.secretsCodec ? { codec: opts.secretsCodec } : {}),
  })
  const attachmentFiles = AttachmentFiles.in(dataDir)
  const store = createSessionStore(dataDir, {
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    attachmentFiles,
  })
  // attached files nothing uses any more (not sent, or left by a crash): in the background
  setTimeout(() => {
    try {
      if (store.db.open) store.sweepAttachments()
    } catch (e) {
      warn(`Could not remove unused attachments: ${(e as Error).message}`)
    }
  }, 2_000).unref()
  const runtimeSecrets = new Set<string>()
  const logger = new FileTurnLogger(dataDir, {
    secrets: () => [...secrets.allKeys(), ...runtimeSecrets],
    onError: (e) => warn(`Could not write a turn log: ${e.message}`),
  })
  const rules = new SettingsPermissionRules(settings, Date.now, warn)
  // Old turn logs go in the background; never in the way of a turn.
  void pruneTurnLogs(dataPaths(dataDir).logsRoot, settings.get().logRetentionDays).catch(() => {})
  const models = new ModelIndex(dataDir)
  const downloads = new ModelDownloads(models, () => {
    const url = settings.get().localModels.hubURL
    return { hub: new HubClient(url), url }
  })
  const localRuntime = new LocalRuntime(
    opts.localRuntimeLauncher ?? null,
    () => {
      const l = settings.get().localModels
      return {
        dataDir,
        idleMs: l.idleMinutes * 60_000,
        threads: l.threads,
        maxContext: l.maxContext,
      }
    },
    opts.onRuntimeLog,
  )
  const assistants = new SqliteAssistantStore(store)
  const knowledge = lazyKnowledge(dataDir, opts, settings, warn)
  return {
    dataDir,
    settings,
    secrets,
    store,
    assistants,
    projects: new ProjectService(new SqliteProjectStore(store), assistants, store),
    usage: new SqliteUsageLedger(store),
    logger,
    turnLogs: {
      list: (sessionId, page) => listTurnLogs(dataDir, sessionId, page),
      deleteSession: (sessionId) => deleteSessionLogs(dataDir, sessionId),
    },
    rules,
    attachments: attachmentService(attachmentFiles, store, () => settings.get().attachments),
    imports: {
      importFile: (file, o) =>
        importInWorker(
          { dataDir, ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}) },
          file,
          o,
        ),
    },
    defaultWorkspace: () => defaultWorkspace(),
    calibration: new FileTokenCalibration(dataDir, (e) =>
      warn(`Could not save the token calibration: ${e.message}`),
    ),
    models,
    localRuntime,
    downloads,
    modelHub: () => new HubClient(settings.get().localModels.hubURL),
    knowledge: knowledge.open,
    registerSecret: (secret) => void runtimeSecrets.add(secret),
    close: () => {
      knowledge.close()
      downloads.stopAll()
      localRuntime.stopNow()
      store.close()
    },
  }
}
