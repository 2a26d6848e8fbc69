/**
 * The interfaces the services (`src-main/services/`, `src-main/ipc/`) work through: the
 * session and assistant repositories, the settings, the secrets, the turn logs, the
 * permission rules, the token calibration and the tools (MCP ports: `mcp-ports.ts`). Adapters implement them (SQLite, files);
 * only the composition files (`services/host/app-services.ts`, `services/host/app-host.ts`,
 * `services/tools/tool-runtime.ts`) and the hosts (`electron/`, `web/`, `cli/`) make the
 * adapters and hand them out as these. Tests run services against in-memory fakes of them
 * (`tests/support/memory-repositories.ts`).
 */
import type { UsageGroup } from '../../src-preload/contract/usage'
import type {
  Assistant,
  AssistantDraft,
  AssistantOrigin,
} from '../../src-preload/contract/assistants'
import type { BuiltinToolInfo } from '../../src-preload/contract/app-dto'
import type {
  AttachmentPart,
  BranchVersions,
  ImportProgress,
  ImportSummary,
  McpServerInfo,
  SearchHit,
  SessionRecord,
  StoredMessage,
} from '../../src-preload/contract/dto'
import type {
  KnowledgeFile,
  KnowledgeHit,
  KnowledgeOwner,
  KnowledgeProgress,
  KnowledgeSearchResult,
  KnowledgeSource,
} from '../../src-preload/contract/knowledge'
import type { LocalModel } from '../../src-preload/contract/local-models'
import type {
  ProjectDeleted,
  ProjectDraft,
  ProjectPatch,
  ProjectSummary,
} from '../../src-preload/contract/projects'
import type { SettingsData } from '../../src-preload/contract/settings-schema'
import type { McpResourcesAndPrompts, McpServers } from './mcp-ports'
import type {
  AttachmentReader,
  PermissionRuleStore,
  SessionStore,
  TokenCalibration,
  ToolHost,
} from './ports'
import type { ExpectedError } from './errors'

// ——— sessions ———

export interface ListSessionsOptions {
  limit: number
  offset?: number
  /** archived sessions are left out unless this is true */
  includeArchived?: boolean
}

/** A page of a session's open branch (`sessions.get`). */
export interface BranchMessages {
  messages: StoredMessage[]
  /** the branch has older messages than these */
  hasMore: boolean
  versions: BranchVersions
}

export interface MessagePage {
  /** messages with a greater seq (then the first `limit` of them) */
  afterSeq?: number
  /** messages with a smaller seq */
  beforeSeq?: number
  limit: number
}

export interface SearchOptions {
  /** default 20, at most 200 */
  limit?: number
  offset?: number
  /**
   * `newest`: newest first (messages by time, title hits by the session's last activity).
   * `ranked`: title hits first, then messages by relevance among the newest matches.
   */
  order: 'newest' | 'ranked'
  /** wrapped around matched terms in snippets; default `['[', ']']` */
  markers?: [string, string]
}

export type ExportFormat = 'md' | 'json'

/** What an export does with attached files. */
export interface ExportAttachments {
  /** Markdown: the relative path an attachment is linked by (null: only named) */
  link?(part: AttachmentPart): string | null
  /** JSON: the stored file, embedded (base64), with a document's text */
  embed?(part: AttachmentPart): { mediaType: string; data: string; text: string | null } | null
}

/** Who holds a session's lease. */
export interface LeaseHolder {
  pid: number
  /** 'cli', 'web', 'desktop'… as the owner said */
  kind: string
  since: number
  heartbeatAt: number
  /** held by this store (this process) */
  self: boolean
}

export interface SessionLease {
  readonly sessionId: string
  /** renews the heartbeat now; false when the lease was lost (taken over as stale) */
  renew(): boolean
  /** gives the lease up (idempotent) */
  release(): void
}

/** `busy`: what to tell the user (who has the session, what to do) */
export type LeaseResult =
  { ok: true; lease: SessionLease } | { ok: false; holder: LeaseHolder; busy: string }

/** One turn per session, across every process that shares the data directory. */
export interface SessionLeases {
  /** takes the session's lease (synchronously), or says who holds it */
  acquire(sessionId: string, owner: string): LeaseResult
}

/**
 * Sessions and their messages, as the services use them: the core's `SessionStore` plus
 * the lists, search, export, deletion, pins and compaction undo of the routes, the leases
 * that keep one turn per session, and the damage a query found.
 */
export interface SessionRepository extends SessionStore {
  /** who runs which session's turn, across processes */
  readonly leases: SessionLeases
  listSessions(opts: ListSessionsOptions): { sessions: SessionRecord[]; total: number }
  /** one page of a session's history, in order */
  getMessages(sessionId: string, page: MessagePage): StoredMessage[]
  /** one page of the session's open branch, from its end backwards, and its versions */
  getBranchPage(sessionId: string, page: { limit: number; beforeSeq?: number }): BranchMessages
  /**
   * Opens the branch that shows the message `seq` (unchanged when the open branch holds
   * it); null when the session has no such message or it is a summary
   */
  openBranchAt(sessionId: string, seq: number): SessionRecord | null
  /**
   * "Branch into new chat": a new session holding the branch up to the message `seq` (a
   * message of the chain, checked by the caller), whose origin links back; the source is
   * not changed
   */
  forkSession(sessionId: string, seq: number): SessionRecord
  renameSession(id: string, title: string): SessionRecord
  setPinned(id: string, pinned: boolean): SessionRecord
  /**
   * false when there was no such session. The attached files no other chat uses go with it,
   * unless `keepAttachments` (a first turn that failed: the message may be sent again).
   */
  deleteSession(id: string, opts?: { keepAttachments?: boolean }): boolean
  /** null when the session has no such message */
  setMessagePinned(sessionId: string, messageId: string, pinned: boolean): StoredMessage | null
  /** takes a compaction's summary out of the history (undo); false when there was none */
  removeSummary(sessionId: string, messageId: string): boolean
  search(query: string, opts: SearchOptions): SearchHit[]
  exportSession(id: string, format: ExportFormat, attachments?: ExportAttachments): string
  /** the first damage a query found in the database, or null */
  readonly damage: StorageDamage | null
  /** that damage, or what a check of the whole database finds now; null when it is sound */
  findDamage(): StorageDamage | null
}

// ——— imports ———

/**
 * Chats brought from an export file (ChatGPT's, Claude's, Cairn's own JSON): read in a
 * worker thread, each conversation written in a transaction of its own, the summary at
 * the end. Throws `import_unreadable` when the file is not an export at all.
 */
export interface ChatImporter {
  importFile(
    file: string,
    opts?: { onProgress?: (p: ImportProgress) => void; signal?: AbortSignal; name?: string },
  ): Promise<ImportSummary>
}

// ——— attachments ———

/** A file the user attaches: its name and its bytes, read once. */
export interface AttachedFile {
  name: string
  bytes: Uint8Array
}

/**
 * Attached files (`<data dir>/attachments/`): read once when attached (an image made ready
 * to send, a document's text extracted), stored by their content, read back for requests,
 * previews and exports. `take` throws an `AttachmentRefused` naming the file.
 */
export interface AttachmentService {
  /** `pending`: kept for a while though no message uses it yet (the window's composer) */
  take(file: AttachedFile, opts: { pending: boolean }): Promise<AttachmentPart>
  /** what a turn reads its attachments with */
  readonly reader: AttachmentReader
  /** the stored file and its media type, or null when it is not there */
  read(id: string): Promise<{ mediaType: string; data: Uint8Array } | null>
  /** a document's extracted text */
  text(id: string): string | null
  /** an image's small preview, as a `data:` URL */
  thumbnail(id: string): Promise<string | null>
  /**
   * A stored PDF's first pages drawn as images, each stored and kept like a file attached
   * in the window (`pending`), named after the PDF (`name`) and its page; refused
   * (`attachment_refused`) when it is not a stored PDF or cannot be drawn
   */
  pdfPages(input: { id: string; name: string }): Promise<AttachmentPart[]>
}

/** What is wrong with the data directory or the database: the message says what to do. */
export interface StorageDamage extends ExpectedError<'data_dir_not_writable' | 'database_damaged'> {
  /** the directory or file concerned */
  readonly path: string
}

// ——— assistants ———

/** The assistant a session runs with: the stored one, or its copy when that is gone. */
export interface SessionAssistantChoice {
  assistant: Assistant
  /** false: the assistant was deleted (or cannot be read); this is the session's copy */
  live: boolean
}

/**
 * Assistants, and which one each session runs with. `require`, `create`, `update`,
 * `duplicate` and `delete` throw an ExpectedError `not_found` or `conflict` (a name taken,
 * with `details.fields.name`; the default assistant deleted) whose message says what to do.
 */
export interface AssistantRepository {
  /** every readable assistant: the default first, then by name */
  list(): Assistant[]
  get(id: string): Assistant | null
  require(id: string): Assistant
  findByName(name: string): Assistant | null
  defaultAssistant(): Assistant
  /** `base`, or `base (2)`, `base (3)`… whichever no assistant has */
  freeName(base: string): string
  create(draft: AssistantDraft, origin?: AssistantOrigin): Assistant
  update(id: string, draft: AssistantDraft): Assistant
  duplicate(id: string, name?: string): Assistant
  delete(id: string): boolean
  forSession(sessionId: string): SessionAssistantChoice
  /** records the assistant (and a copy of it) as the session's; false: no such session */
  setForSession(sessionId: string, assistant: Assistant): boolean
}

// ——— projects ———

/**
 * Projects, and which one each session is in. `create` and `update` throw an ExpectedError
 * `conflict` for a name taken (with `details.fields.name`), `update` and `setForSession` a
 * `not_found` for a project that is not there. Input is checked by the caller (the service).
 */
export interface ProjectRepository {
  /** every readable project, by name */
  list(): ProjectSummary[]
  get(id: string): ProjectSummary | null
  /** compared without case and surrounding spaces */
  findByName(name: string): ProjectSummary | null
  create(draft: ProjectDraft): ProjectSummary
  update(id: string, patch: ProjectPatch): ProjectSummary
  /** deletes the project; its chats move to "No project" */
  delete(id: string): ProjectDeleted
  /** moves a session into a project (null: none); false when there is no such session */
  setForSession(sessionId: string, projectId: string | null): boolean
}

// ——— settings and secrets ———

export interface SettingsStore {
  /** `<dataDir>/settings.json` */
  readonly path: string
  /** the warnings given so far (repairs of a broken file), oldest first */
  readonly warnings: readonly string[]
  /** the current settings, read from the file (a fresh copy: mutating it changes nothing) */
  get(): SettingsData
  /**
   * Read-modify-write under the lock: `mutator` gets the current settings and changes
   * them in place or returns new ones. An invalid result rejects with
   * `SettingsValidationError` and writes nothing. Resolves with the saved settings.
   * Waiting for the lock and writing the file never block the event loop.
   */
  update(mutator: (settings: SettingsData) => void | SettingsData): Promise<SettingsData>
  /**
   * The same, waiting for the lock synchronously (up to its timeout): for the CLI, a
   * short-lived process with no window to keep responsive. Never in the desktop app or
   * browser mode.
   */
  updateSync(mutator: (settings: SettingsData) => void | SettingsData): SettingsData
}

export interface SecretsStore {
  /** `<dataDir>/secrets.json` */
  readonly path: string
  readonly warnings: readonly string[]
  getApiKey(providerId: string): string | undefined
  /** `null` removes the key */
  setApiKey(providerId: string, key: string | null): void
  /** every stored key, decoded: what the turn logs must never contain */
  allKeys(): string[]
  /** a remote MCP server's OAuth state (JSON), per server URL */
  getMcpAuth(serverUrl: string): string | undefined
  /** `null` removes it */
  setMcpAuth(serverUrl: string, json: string | null): void
  /** an installed extension's sensitive settings (its `user_config`), per server name */
  getMcpValues(server: string): Record<string, string> | undefined
  /** `null` (or nothing) removes them */
  setMcpValues(server: string, values: Record<string, string> | null): void
}

// ——— turn logs, rules, calibration ———

/** One logged LLM call read back: the parsed files, null when missing or unreadable. */
export interface TurnLogEntry {
  number: number
  request: unknown
  response: unknown
}

export interface TurnLogPage {
  /** how many LLM calls the session has logs for */
  total: number
  items: TurnLogEntry[]
}

/** The turn logs kept per session, read back and deleted with it. */
export interface TurnLogArchive {
  /** the session's logged calls ordered by number, `limit` of them from `offset` */
  list(sessionId: string, page: { offset: number; limit: number }): Promise<TurnLogPage>
  /** deletes the session's logs (nothing when it has none) */
  deleteSession(sessionId: string): Promise<void>
}

/** "Always allow" rules, saved in the background: `flushed` waits for what is being saved. */
export interface PermissionRules extends PermissionRuleStore {
  flushed(): Promise<void>
}

/** The token calibration, saved in the background: `flushed` waits for what is being saved. */
export interface SavedTokenCalibration extends TokenCalibration {
  flushed(): Promise<void>
}

// ——— tools ———

/** The tools every host runs: the MCP servers and the built-in set. */
export interface ToolRuntime {
  manager: McpServers
  /** the servers' resources and prompts */
  resourcesAndPrompts: McpResourcesAndPrompts
  /**
   * the tools of one session's turn (its workspace for the built-in file tools; its
   * assistant's and project's skills besides the data directory's)
   */
  hostFor(session: Pick<SessionRecord, 'workspace' | 'assistant' | 'projectId'>): ToolHost
  /** every built-in tool, switched on in the settings or not */
  builtins(): BuiltinToolInfo[]
  /** every configured MCP server, enabled or not, in name order */
  servers(): McpServerInfo[]
  shutdown(): Promise<void>
}

// ——— local models ———

/** The GGUF models Cairn runs itself (`<data dir>/models/`, the `local` provider). */
export interface LocalModelStore {
  /** the folder that holds them */
  readonly dir: string
  /** the models whose file is there, in the order they were added */
  list(): LocalModel[]
  get(name: string): LocalModel | null
  /** the model's file */
  filePath(model: Pick<LocalModel, 'file'>): string
  /** copies a GGUF file in (checked: GGUF, whole) and lists it under `name` (default: from the file) */
  addFile(source: string, name?: string): Promise<LocalModel>
  /** removes the model and its file */
  remove(name: string): Promise<LocalModel>
  /** where a download of the file with this sha256 is kept until it is whole and checked */
  partialPath(sha256: string): string
  /**
   * Lists a downloaded file (whole, its sha256 checked by the caller) under `name`: checked
   * as GGUF, moved in under a free file name, added to the index.
   */
  addDownloaded(
    partial: string,
    entry: Pick<LocalModel, 'name' | 'sha256' | 'source'>,
  ): Promise<LocalModel>
}

// ——— usage ———

/** A period of stored usage and how to group it (`UsageLedger.sums`). */
export interface UsageQuery {
  /** epoch ms, inclusive; null: from the first answer */
  since: number | null
  /** epoch ms, exclusive; null: up to now */
  until: number | null
  by: UsageGroup
}

/**
 * The sums of one group's answers with one provider and model, priced (stored with a
 * price) or not: the service prices the others with the prices in force and adds them up.
 */
export interface UsageSums {
  /** the day (`YYYY-MM-DD`, the host's time zone), the model, the provider or the session id */
  key: string
  /** the session's title (grouped by session), else null */
  title: string | null
  provider: string | null
  model: string | null
  priced: boolean
  answers: number
  inputTokens: number
  outputTokens: number
  cachedInputTokens: number
  reasoningTokens: number
  estimatedAnswers: number
  /** the stored costs' sum (0 when not priced) */
  cost: number
}

/** The stored usage of every answer (in `cairn.db`, indexed for the report). */
export interface UsageLedger {
  sums(q: UsageQuery): UsageSums[]
}

// ——— knowledge ———

/**
 * The knowledge base (`knowledge.db`, indexed in a worker thread): sources, each file's
 * status, search. Sources are added and removed here; the index follows in the background.
 */
export interface KnowledgeBase {
  /** adds a file or folder (absolute path) and starts indexing it; `not_found` when missing */
  addSource(owner: KnowledgeOwner, path: string): Promise<KnowledgeSource>
  /** removes a source by its id or path (of `owner` when given); `not_found` when unknown */
  removeSource(idOrPath: string, owner?: KnowledgeOwner): Promise<void>
  /** reads every file again (of one source, or of all), resolving when done */
  reindex(sourceId?: string): Promise<void>
  /** reads one file again (Retry), resolving when done */
  retryFile(sourceId: string, path: string): Promise<void>
  sources(owner?: KnowledgeOwner): KnowledgeSource[]
  files(sourceId: string): KnowledgeFile[]
  /** how a file was split (Show chunks) */
  chunks(sourceId: string, path: string): KnowledgeHit[]
  search(owner: KnowledgeOwner, query: string, limit?: number): Promise<KnowledgeSearchResult>
  progress(): KnowledgeProgress
  /** told when files were indexed or removed, and as indexing goes */
  onChange(listener: () => void): () => void
  /** resolves when every job so far is done */
  whenIdle(): Promise<void>
  /** indexes what changed since the last time and watches the sources from now on */
  start(): void
  close(): Promise<void>
}
