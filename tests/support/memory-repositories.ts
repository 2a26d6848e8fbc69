/**
 * In-memory implementations of the services' ports (`src-main/core/service-ports.ts`):
 * sessions with their leases, assistants, settings, secrets and turn logs, with the rules
 * of the SQLite and file adapters they stand in for (what a title becomes, what a page of
 * messages holds, who holds a lease, what a settings change must pass). `memoryServices`
 * puts them together as `AppServices`, so that handlers and turns run with no database and
 * no data directory.
 */
import { MemoryKnowledge } from './memory-knowledge'
import { createHash, randomUUID } from 'node:crypto'
import type { LocalModel } from '../../src-preload/contract/local-models'
import type {
  AttachedFile,
  AttachmentService,
  LocalModelStore,
} from '../../src-main/core/service-ports'
import { LocalRuntime } from '../../src-main/services/providers/local-runtime'
import { ModelDownloads } from '../../src-main/services/providers/model-downloads'
import { ProjectService } from '../../src-main/services/projects/project-service'
import { MemoryProjectRepository } from './memory-projects'
import {
  assistantDraftSchema,
  DEFAULT_ASSISTANT_ID,
  type Assistant,
  type AssistantDraft,
  type AssistantOrigin,
} from '../../src-preload/contract/assistants'
import type {
  AttachmentPart,
  NewMessage,
  SearchHit,
  SessionRecord,
  StoredMessage,
  TodoItem,
} from '../../src-preload/contract/dto'
import type { SettingsData } from '../../src-preload/contract/settings-schema'
import type {
  AttachmentReader,
  NewSession,
  SessionPatch,
  TurnLogHandle,
  TurnLogRequest,
} from '../../src-main/core/ports'
import type {
  AssistantRepository,
  ExportFormat,
  LeaseHolder,
  LeaseResult,
  BranchMessages,
  ListSessionsOptions,
  MessagePage,
  SearchOptions,
  SecretsStore,
  SessionAssistantChoice,
  SessionLeases,
  SessionRepository,
  SettingsStore,
  StorageDamage,
  TurnLogArchive,
  TurnLogEntry,
} from '../../src-main/core/service-ports'
import { branchOf, branchPage, leafShowing } from '../../src-main/core/agent/history-tree'
import { ASSISTANT_SEEDS } from '../../src-main/adapters/sqlite/assistant-seeds'
import { nameTaken } from '../../src-main/adapters/sqlite/assistant-store'
import { ExpectedError } from '../../src-main/core/errors'
import { exportSessionAs } from '../../src-main/adapters/sqlite/export'
import { findDanglingToolCalls, interruptedResult } from '../../src-main/adapters/sqlite/repair'
import { SessionLeases as SqliteLeases } from '../../src-main/adapters/sqlite/session-leases'
import { cleanTitle, titleFromText } from '../../src-main/adapters/sqlite/text'
import { SettingsPermissionRules } from '../../src-main/adapters/settings/rules'
import { defaultSettings } from '../../src-main/adapters/settings/schema'
import { SettingsValidationError } from '../../src-main/adapters/settings/settings-store'
import { checkSettings } from '../../src-main/adapters/settings/validate'
import type { AppServices } from '../../src-main/services/host/app-services'
import { MemoryUsageLedger } from './memory-usage-ledger'

interface StoredSession {
  record: Omit<SessionRecord, 'messageCount' | 'assistant'>
  messages: StoredMessage[]
  assistantId: string | null
  /** the copy of the assistant the session last ran with */
  snapshot: Assistant | null
}

const copy = <T>(v: T): T => structuredClone(v)

/** One process's leases: a lease held here refuses the next one, as the SQLite table does. */
class MemoryLeases implements SessionLeases {
  private readonly held = new Map<string, { kind: string; since: number }>()

  constructor(private readonly now: () => number) {}

  acquire(sessionId: string, owner: string): LeaseResult {
    const current = this.held.get(sessionId)
    if (current) {
      const holder: LeaseHolder = {
        pid: process.pid,
        kind: current.kind,
        since: current.since,
        heartbeatAt: this.now(),
        self: true,
      }
      return { ok: false, holder, busy: SqliteLeases.busyMessage(holder) }
    }
    this.held.set(sessionId, { kind: owner, since: this.now() })
    let released = false
    return {
      ok: true,
      lease: {
        sessionId,
        renew: () => !released,
        release: () => {
          if (released) return
          released = true
          this.held.delete(sessionId)
        },
      },
    }
  }

  /** whether a lease on the session is held (for tests) */
  isHeld(sessionId: string): boolean {
    return this.held.has(sessionId)
  }
}

export class MemorySessionRepository implements SessionRepository {
  private readonly sessions = new Map<string, StoredSession>()
  readonly leases: MemoryLeases
  /** set by a test to make every call fail as a damaged database does */
  damage: StorageDamage | null = null
  /** assistants, for the sessions' `assistant` field (set by `memoryRepositories`) */
  assistants: MemoryAssistantRepository | null = null

  constructor(private readonly now: () => number = Date.now) {
    this.leases = new MemoryLeases(now)
  }

  /** every session's title and messages (the usage ledger's fake reads them) */
  allMessages(): { title: string; messages: StoredMessage[] }[] {
    return [...this.sessions.values()].map((s) => ({ title: s.record.title, messages: s.messages }))
  }

  private require(id: string): StoredSession {
    if (this.damage) throw this.damage
    const s = this.sessions.get(id)
    if (!s) throw new Error(`There is no session "${id}".`)
    return s
  }

  private view(s: StoredSession): SessionRecord {
    const id = s.assistantId ?? DEFAULT_ASSISTANT_ID
    const live = this.assistants?.get(id) ?? null
    const name = live?.name ?? s.snapshot?.name ?? 'Unknown assistant'
    return {
      ...copy(s.record),
      messageCount: s.messages.length,
      assistant: { id, name, ...(live ? {} : { deleted: true }) },
    }
  }

  createSession(init: NewSession = {}): SessionRecord {
    if (this.damage) throw this.damage
    const now = this.now()
    const s: StoredSession = {
      record: {
        id: randomUUID(),
        title: cleanTitle(init.title ?? ''),
        createdAt: now,
        updatedAt: now,
        provider: init.provider ?? null,
        model: init.model ?? null,
        workspace: init.workspace ?? null,
        systemPrompt: init.systemPrompt ?? null,
        projectId: init.projectId ?? null,
        todos: [],
        usage: { inputTokens: 0, outputTokens: 0 },
        pinned: false,
        archived: false,
        leafSeq: null,
      },
      messages: [],
      assistantId: null,
      snapshot: null,
    }
    this.sessions.set(s.record.id, s)
    return this.view(s)
  }

  getSession(id: string): SessionRecord | null {
    if (this.damage) throw this.damage
    const s = this.sessions.get(id)
    return s ? this.view(s) : null
  }

  updateSession(id: string, patch: SessionPatch): SessionRecord {
    const s = this.require(id)
    const { title, ...rest } = patch
    Object.assign(s.record, copy(rest), title !== undefined ? { title: cleanTitle(title) } : {})
    return this.view(s)
  }

  renameSession(id: string, title: string): SessionRecord {
    return this.updateSession(id, { title })
  }

  setPinned(id: string, pinned: boolean): SessionRecord {
    return this.updateSession(id, { pinned })
  }

  setTodos(sessionId: string, todos: TodoItem[]): void {
    this.updateSession(sessionId, { todos })
  }

  deleteSession(id: string): boolean {
    if (this.damage) throw this.damage
    return this.sessions.delete(id)
  }

  /** pinned first, then the most recently active */
  listSessions(opts: ListSessionsOptions): { sessions: SessionRecord[]; total: number } {
    if (this.damage) throw this.damage
    const all = [...this.sessions.values()]
      .filter((s) => opts.includeArchived || !s.record.archived)
      .sort(
        (a, b) =>
          Number(b.record.pinned) - Number(a.record.pinned) ||
          b.record.updatedAt - a.record.updatedAt,
      )
    const from = Math.max(0, opts.offset ?? 0)
    return {
      sessions: all.slice(from, from + Math.max(0, opts.limit)).map((s) => this.view(s)),
      total: all.length,
    }
  }

  listMessages(sessionId: string): StoredMessage[] {
    if (this.damage) throw this.damage
    return copy(this.sessions.get(sessionId)?.messages ?? [])
  }

  /** ascending seq: after `afterSeq` the first `limit`, else the last `limit` before `beforeSeq` */
  getMessages(sessionId: string, page: MessagePage): StoredMessage[] {
    const before = page.beforeSeq ?? Number.MAX_SAFE_INTEGER
    const limit = Math.max(0, page.limit)
    const inRange = this.listMessages(sessionId).filter(
      (m) => m.seq < before && (page.afterSeq === undefined || m.seq > page.afterSeq),
    )
    return page.afterSeq !== undefined
      ? inRange.slice(0, limit)
      : inRange.slice(Math.max(0, inRange.length - limit))
  }

  getBranchPage(sessionId: string, page: { limit: number; beforeSeq?: number }): BranchMessages {
    const all = this.listMessages(sessionId)
    const { seqs, hasMore, versions } = branchPage(
      all,
      this.require(sessionId).record.leafSeq,
      page,
    )
    const wanted = new Set(seqs)
    return { messages: all.filter((m) => wanted.has(m.seq)), hasMore, versions }
  }

  openBranchAt(sessionId: string, seq: number): SessionRecord | null {
    const s = this.require(sessionId)
    const leaf = leafShowing(s.messages, s.record.leafSeq, seq)
    if (leaf === null) return null
    return leaf === s.record.leafSeq ? this.view(s) : this.setLeaf(sessionId, leaf)
  }

  forkSession(sessionId: string, seq: number): SessionRecord {
    const source = this.require(sessionId)
    const at = source.messages.find((m) => m.seq === seq)
    if (!at) throw new Error(`session ${sessionId} has no message ${seq} to branch at`)
    const fork = this.createSession({
      title: `${source.record.title || 'Untitled'} · branch at ${seq}`,
      model: source.record.model,
    })
    const renumbered = new Map<number, number>()
    for (const m of branchOf(source.messages, seq)) {
      const { id: _id, sessionId: _s, seq: old, createdAt: _c, ...rest } = m
      const saved = this.appendMessage(fork.id, {
        ...rest,
        parentSeq: m.parentSeq === null ? null : (renumbered.get(m.parentSeq) ?? null),
        supersedes: null,
        covers: m.covers
          ? { from: renumbered.get(m.covers.from)!, to: renumbered.get(m.covers.to)! }
          : null,
      })
      renumbered.set(old, saved.seq)
    }
    const f = this.require(fork.id)
    f.record.origin = {
      kind: 'branch',
      sessionId,
      messageId: at.id,
      messageSeq: seq,
      title: source.record.title,
      at: Date.now(),
    }
    return this.view(f)
  }

  appendMessage(sessionId: string, message: NewMessage): StoredMessage {
    const s = this.require(sessionId)
    const kind = message.kind ?? 'message'
    const parentSeq = message.parentSeq !== undefined ? message.parentSeq : s.record.leafSeq
    const stored: StoredMessage = {
      turnId: null,
      parts: null,
      reasoning: null,
      providerExtras: null,
      toolCallId: null,
      toolName: null,
      provider: null,
      model: null,
      status: 'complete',
      failureKind: null,
      usage: null,
      supersedes: null,
      durationMs: null,
      reasoningMs: null,
      decidedBy: null,
      servedModel: null,
      covers: null,
      ...copy(message),
      toolCalls: message.toolCalls && message.toolCalls.length > 0 ? copy(message.toolCalls) : null,
      pinned: message.pinned === true,
      isError: message.isError === true || !!message.failureKind,
      kind,
      id: randomUUID(),
      sessionId,
      seq: (s.messages.at(-1)?.seq ?? 0) + 1,
      parentSeq,
      createdAt: this.now(),
    }
    s.messages.push(stored)
    // the open branch grows with a message after its end; a user message opens its own
    if (
      kind !== 'summary' &&
      (s.record.leafSeq === parentSeq || (message.role === 'user' && kind === 'message'))
    )
      s.record.leafSeq = stored.seq
    s.record.updatedAt = stored.createdAt
    s.record.usage.inputTokens += message.usage?.inputTokens ?? 0
    s.record.usage.outputTokens += message.usage?.outputTokens ?? 0
    if (typeof message.cost === 'number')
      s.record.usage.cost = Math.round(((s.record.usage.cost ?? 0) + message.cost) * 1e8) / 1e8
    if (s.record.title === '' && message.role === 'user' && kind === 'message')
      s.record.title = titleFromText(message.content)
    return copy(stored)
  }

  setMessagePinned(sessionId: string, messageId: string, pinned: boolean): StoredMessage | null {
    if (this.damage) throw this.damage
    const m = this.sessions.get(sessionId)?.messages.find((x) => x.id === messageId)
    // only conversation messages can be pinned
    if (!m || m.kind !== 'message') return null
    m.pinned = pinned
    return copy(m)
  }

  removeSummary(sessionId: string, messageId: string): boolean {
    if (this.damage) throw this.damage
    const s = this.sessions.get(sessionId)
    const i = s?.messages.findIndex((m) => m.id === messageId && m.kind === 'summary') ?? -1
    if (!s || i < 0) return false
    s.messages.splice(i, 1)
    return true
  }

  repairDanglingToolCalls(sessionId: string): StoredMessage[] {
    const s = this.require(sessionId)
    const rows = s.messages
      .filter((m) => m.kind !== 'summary')
      .map((m) => ({
        seq: m.seq,
        parent_seq: m.parentSeq,
        role: m.role,
        turn_id: m.turnId,
        tool_calls: m.toolCalls ? JSON.stringify(m.toolCalls) : null,
        tool_call_id: m.toolCallId,
      }))
    const tips = new Map<number, number>()
    return findDanglingToolCalls(rows).map((d) => {
      const saved = this.appendMessage(
        sessionId,
        interruptedResult(d, tips.get(d.assistantSeq) ?? d.after),
      )
      tips.set(d.assistantSeq, saved.seq)
      return saved
    })
  }

  setLeaf(sessionId: string, seq: number): SessionRecord {
    const s = this.require(sessionId)
    if (!s.messages.some((m) => m.seq === seq && m.kind !== 'summary'))
      throw new Error(`session ${sessionId} has no message ${seq} to open a branch at`)
    s.record.leafSeq = seq
    return this.view(s)
  }

  /** every word of the query in a title or a message's text, newest first, without case */
  search(query: string, opts: SearchOptions): SearchHit[] {
    if (this.damage) throw this.damage
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => /[\p{L}\p{N}]/u.test(w))
    if (words.length === 0) return []
    const [open, close] = opts.markers ?? ['[', ']']
    const matches = (text: string): boolean => words.every((w) => text.toLowerCase().includes(w))
    const mark = (text: string): string =>
      words.reduce(
        (t, w) =>
          t.replace(
            new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'),
            (x) => `${open}${x}${close}`,
          ),
        text,
      )
    const hits: SearchHit[] = []
    for (const s of this.sessions.values()) {
      const r = s.record
      if (matches(r.title))
        hits.push({
          sessionId: r.id,
          sessionTitle: r.title,
          messageId: null,
          seq: null,
          role: null,
          snippet: mark(r.title),
          createdAt: r.updatedAt,
        })
      for (const m of s.messages)
        if (matches(m.content))
          hits.push({
            sessionId: r.id,
            sessionTitle: r.title,
            messageId: m.id,
            seq: m.seq,
            role: m.role,
            snippet: mark(m.content),
            createdAt: m.createdAt,
          })
    }
    hits.sort((a, b) => b.createdAt - a.createdAt)
    const from = opts.offset ?? 0
    return hits.slice(from, from + (opts.limit ?? 20))
  }

  exportSession(id: string, format: ExportFormat): string {
    const s = this.require(id)
    return exportSessionAs(format, this.view(s), copy(s.messages))
  }

  findDamage(): StorageDamage | null {
    return this.damage
  }

  /** what `AssistantRepository.setForSession` records */
  recordAssistant(sessionId: string, assistant: Assistant): boolean {
    const s = this.sessions.get(sessionId)
    if (!s) return false
    s.assistantId = assistant.id
    s.snapshot = copy(assistant)
    return true
  }

  /** the assistant id and copy a session keeps */
  assistantOf(sessionId: string): { id: string | null; snapshot: Assistant | null } {
    const s = this.sessions.get(sessionId)
    return { id: s?.assistantId ?? null, snapshot: s ? copy(s.snapshot) : null }
  }
}

const nameKey = (name: string): string => name.trim().toLocaleLowerCase()

export class MemoryAssistantRepository implements AssistantRepository {
  private readonly rows = new Map<string, Assistant>()

  constructor(
    private readonly sessions: MemorySessionRepository,
    private readonly now: () => number = Date.now,
  ) {
    for (const seed of ASSISTANT_SEEDS) {
      const at = this.now()
      this.rows.set(seed.id, {
        ...assistantDraftSchema.parse(seed.draft),
        id: seed.id,
        origin: seed.origin,
        createdAt: at,
        updatedAt: at,
      })
    }
  }

  list(): Assistant[] {
    return [...this.rows.values()]
      .sort(
        (a, b) =>
          Number(b.id === DEFAULT_ASSISTANT_ID) - Number(a.id === DEFAULT_ASSISTANT_ID) ||
          a.name.localeCompare(b.name),
      )
      .map(copy)
  }

  get(id: string): Assistant | null {
    const a = this.rows.get(id)
    return a ? copy(a) : null
  }

  require(id: string): Assistant {
    const a = this.get(id)
    if (!a) throw new ExpectedError('not_found', `There is no assistant "${id}".`)
    return a
  }

  findByName(name: string): Assistant | null {
    return this.list().find((a) => nameKey(a.name) === nameKey(name)) ?? null
  }

  defaultAssistant(): Assistant {
    return this.require(DEFAULT_ASSISTANT_ID)
  }

  freeName(base: string): string {
    const name = base.trim()
    if (!this.findByName(name)) return name
    for (let i = 2; ; i++) if (!this.findByName(`${name} (${i})`)) return `${name} (${i})`
  }

  private checkName(name: string, exceptId: string | null): void {
    const other = this.findByName(name)
    if (other && other.id !== exceptId) throw nameTaken(other.name)
  }

  create(draft: AssistantDraft, origin: AssistantOrigin = 'user'): Assistant {
    const checked = assistantDraftSchema.parse(draft)
    this.checkName(checked.name, null)
    const at = this.now()
    const a: Assistant = {
      ...checked,
      name: checked.name.trim(),
      id: randomUUID(),
      origin,
      createdAt: at,
      updatedAt: at,
    }
    this.rows.set(a.id, a)
    return copy(a)
  }

  update(id: string, draft: AssistantDraft): Assistant {
    const before = this.require(id)
    const checked = assistantDraftSchema.parse(draft)
    this.checkName(checked.name, id)
    const a: Assistant = {
      ...checked,
      name: checked.name.trim(),
      id,
      origin: before.origin,
      createdAt: before.createdAt,
      updatedAt: this.now(),
    }
    this.rows.set(id, a)
    return copy(a)
  }

  duplicate(id: string, name?: string): Assistant {
    const { id: _id, origin: _o, createdAt: _c, updatedAt: _u, ...draft } = this.require(id)
    return this.create({ ...draft, name: name ?? this.freeName(`${draft.name} (copy)`) })
  }

  delete(id: string): boolean {
    if (id === DEFAULT_ASSISTANT_ID)
      throw new ExpectedError(
        'conflict',
        'The default assistant cannot be deleted: new chats start with it. Edit it instead.',
      )
    return this.rows.delete(id)
  }

  forSession(sessionId: string): SessionAssistantChoice {
    const { id, snapshot } = this.sessions.assistantOf(sessionId)
    const live = this.get(id ?? DEFAULT_ASSISTANT_ID)
    if (live) return { assistant: live, live: true }
    if (snapshot) return { assistant: snapshot, live: false }
    return { assistant: this.defaultAssistant(), live: true }
  }

  setForSession(sessionId: string, assistant: Assistant): boolean {
    return this.sessions.recordAssistant(sessionId, assistant)
  }
}

/** Settings held in memory, checked on every change as the file's are. */
export class MemorySettings implements SettingsStore {
  readonly path = '(memory)/settings.json'
  readonly warnings: string[] = []
  private current: SettingsData

  constructor(initial: Partial<SettingsData> = {}) {
    this.current = { ...defaultSettings(), ...copy(initial) }
  }

  get(): SettingsData {
    return copy(this.current)
  }

  updateSync(mutator: (settings: SettingsData) => void | SettingsData): SettingsData {
    const draft = this.get()
    const result = mutator(draft) ?? draft
    const problems = checkSettings(result)
    if (problems !== null) throw new SettingsValidationError(problems)
    this.current = copy(result)
    return this.get()
  }

  async update(mutator: (settings: SettingsData) => void | SettingsData): Promise<SettingsData> {
    return this.updateSync(mutator)
  }
}

export class MemorySecrets implements SecretsStore {
  readonly path = '(memory)/secrets.json'
  readonly warnings: string[] = []
  private readonly keys = new Map<string, string>()
  private readonly mcpAuth = new Map<string, string>()
  private readonly mcpValues = new Map<string, Record<string, string>>()

  getApiKey(providerId: string): string | undefined {
    return this.keys.get(providerId)
  }
  setApiKey(providerId: string, key: string | null): void {
    if (key === null) this.keys.delete(providerId)
    else this.keys.set(providerId, key)
  }
  allKeys(): string[] {
    return [...this.keys.values(), ...[...this.mcpValues.values()].flatMap((v) => Object.values(v))]
  }
  getMcpAuth(serverUrl: string): string | undefined {
    return this.mcpAuth.get(serverUrl)
  }
  setMcpAuth(serverUrl: string, json: string | null): void {
    if (json === null) this.mcpAuth.delete(serverUrl)
    else this.mcpAuth.set(serverUrl, json)
  }
  getMcpValues(server: string): Record<string, string> | undefined {
    return this.mcpValues.get(server)
  }
  setMcpValues(server: string, values: Record<string, string> | null): void {
    if (values === null || Object.keys(values).length === 0) this.mcpValues.delete(server)
    else this.mcpValues.set(server, values)
  }
}

/** Turn logs kept in memory: the logger writes them, the archive reads and deletes them. */
export class MemoryTurnLogs implements TurnLogArchive {
  readonly bySession = new Map<string, TurnLogEntry[]>()

  async begin(sessionId: string, request: TurnLogRequest): Promise<TurnLogHandle> {
    const list = this.bySession.get(sessionId) ?? []
    this.bySession.set(sessionId, list)
    const entry: TurnLogEntry = { number: list.length + 1, request: copy(request), response: null }
    list.push(entry)
    return {
      number: entry.number,
      finish: async (response) => {
        entry.response = copy(response)
      },
    }
  }

  async list(sessionId: string, page: { offset: number; limit: number }) {
    const all = this.bySession.get(sessionId) ?? []
    return { total: all.length, items: copy(all.slice(page.offset, page.offset + page.limit)) }
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.bySession.delete(sessionId)
  }
}

/** No local models, and none can be added (a test of local models uses the real index). */
export class MemoryModels implements LocalModelStore {
  readonly dir = '(memory)/models'
  list(): LocalModel[] {
    return []
  }
  get(): LocalModel | null {
    return null
  }
  filePath(m: Pick<LocalModel, 'file'>): string {
    return `${this.dir}/${m.file}`
  }
  async addFile(): Promise<LocalModel> {
    throw new Error('memory services keep no model files')
  }
  async remove(name: string): Promise<LocalModel> {
    throw new Error(`There is no local model "${name}".`)
  }
  partialPath(key: string): string {
    return `${this.dir}/${key}.partial`
  }
  async addDownloaded(): Promise<LocalModel> {
    throw new Error('memory services keep no model files')
  }
}

/**
 * Attachments in memory: every file is taken as UTF-8 text (the real intake, with images and
 * documents, is `adapters/attachments/`, tested on real files in tests/attachments/).
 */
export class MemoryAttachments implements AttachmentService {
  readonly files = new Map<string, { bytes: Uint8Array; text: string }>()
  async take(file: AttachedFile): Promise<AttachmentPart> {
    const id = createHash('sha256').update(file.bytes).digest('hex')
    const text = new TextDecoder().decode(file.bytes)
    this.files.set(id, { bytes: file.bytes, text })
    const source = { mediaType: 'text/plain', bytes: file.bytes.byteLength, sha256: id }
    return {
      type: 'attachment',
      id,
      name: file.name,
      kind: 'document',
      mediaType: 'text/plain',
      bytes: file.bytes.byteLength,
      source,
      chars: text.length,
    }
  }
  readonly reader: AttachmentReader = {
    imageDataUrl: () => null,
    text: (part) => this.files.get(part.id)?.text ?? null,
  }
  async read(id: string): Promise<{ mediaType: string; data: Uint8Array } | null> {
    const file = this.files.get(id)
    return file ? { mediaType: 'text/plain', data: file.bytes } : null
  }
  text(id: string): string | null {
    return this.files.get(id)?.text ?? null
  }
  async thumbnail(): Promise<string | null> {
    return null
  }
  async pdfPages(): Promise<AttachmentPart[]> {
    throw new Error('memory attachments hold no PDF (tests/attachments/ draws real ones)')
  }
}

export interface MemoryServices extends AppServices {
  knowledge: () => MemoryKnowledge
  store: MemorySessionRepository
  assistants: MemoryAssistantRepository
  settings: MemorySettings
  secrets: MemorySecrets
  turnLogs: MemoryTurnLogs
}

/**
 * `AppServices` on the in-memory ports. `dataDir` is only named (the tool runtime keeps its
 * process registry there); the permission rules are the settings' own, over these settings.
 */
export function memoryServices(
  opts: { dataDir?: string; settings?: Partial<SettingsData>; workspace?: string } = {},
): MemoryServices {
  const store = new MemorySessionRepository()
  const assistants = new MemoryAssistantRepository(store)
  store.assistants = assistants
  const settings = new MemorySettings(opts.settings)
  const logs = new MemoryTurnLogs()
  const models = new MemoryModels()
  const rules = new SettingsPermissionRules(settings)
  const knowledge = new MemoryKnowledge()
  return {
    dataDir: opts.dataDir ?? '(memory)',
    settings,
    secrets: new MemorySecrets(),
    store,
    assistants,
    projects: new ProjectService(new MemoryProjectRepository(store), assistants, store),
    usage: new MemoryUsageLedger(store),
    logger: logs,
    turnLogs: logs,
    rules,
    attachments: new MemoryAttachments(),
    // imports write through SQLite (tests/import/ runs them on the real store)
    imports: {
      importFile: () =>
        Promise.reject(new ExpectedError('unavailable', 'Imports need the SQLite store.')),
    },
    defaultWorkspace: () => opts.workspace ?? '(memory)/Cairn',
    models,
    downloads: new ModelDownloads(models, () => {
      throw new Error('memory services reach no hub')
    }),
    modelHub: () => {
      throw new Error('memory services reach no hub')
    },
    localRuntime: new LocalRuntime(null, () => ({
      dataDir: '(memory)',
      idleMs: 60_000,
      threads: 1,
      maxContext: 512,
    })),
    knowledge: () => knowledge,
    registerSecret: () => undefined,
    close: () => undefined,
  }
}
