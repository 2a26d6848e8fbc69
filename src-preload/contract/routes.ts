/**
 * The requests the renderer may make: a name (`domain.verb`) → a zod schema for the input
 * (main parses every request with it) and the type of the output. Results travel as
 * `{ ok: true, data }` or `{ ok: false, error: { code, message, details } }` (`errors.ts`).
 */
import { z } from 'zod'
import type {
  AppInfo,
  BuiltinToolInfo,
  LocalServerStatus,
  ProviderStatus,
  ServerInfoView,
  SettingsView,
  TurnLogItem,
} from './app-dto'
import type {
  AttachmentPart,
  ContentPart,
  McpServerDraft,
  McpServerInfo,
  PermissionPolicy,
  SearchHit,
  SessionRecord,
  StoredMessage,
  BranchVersions,
} from './dto'
import type { SequencedAgentEvent } from './app-events'
import type { ErrorInfo } from './errors'
import type { ElicitationRequestEvent, ApprovalRequestEvent } from './events'
import { mcpServerInput } from './mcp-config-schema'
import type { OpenedView, ToolViewInfo, ViewCallResult } from './mcp-apps'
import type { RegistrySearchResult, RegistryServerView } from './mcp-registry'
import type { ExtensionReview } from './mcpb'
import { assistantDraftSchema, type Assistant, type AssistantToolsPreview } from './assistants'
import { limitsSchema, providerSchema, settingsSchema } from './settings-schema'
import { USAGE_GROUPS, type BudgetStatus, type UsageReport } from './usage'
import { voiceSourceSchema, type VoiceStatus } from './voice'
import type {
  HubFile,
  HubRepo,
  LocalModel,
  LocalModelsView,
  ModelDownload,
  RecommendedModel,
} from './local-models'
import {
  promptRefSchema,
  resourceRefSchema,
  type McpPrompt,
  type McpPromptMessage,
  type McpResource,
  type McpResourceTemplate,
} from './resources-and-prompts'

const id = z.string().min(1).max(200)
const text = (max: number) => z.string().max(max)
const page = {
  limit: z.number().int().min(1).max(500).optional(),
  offset: z.number().int().min(0).optional(),
}

/** a provider as saved: the stored shape, with an http(s) base URL and no unknown fields */
const providerInput = z.strictObject({
  ...providerSchema.shape,
  baseURL: z.url({ protocol: /^https?$/ }),
})

const limitsPatch = z.strictObject(limitsSchema.shape).partial()

const settingsFields = settingsSchema.shape

export const routeInputs = {
  'chat.send': z.strictObject({
    sessionId: id.optional(),
    /** may be empty when files are attached */
    text: z.string().max(1_000_000),
    model: text(500).optional(),
    workspace: text(4096).optional(),
    /**
     * Edit, retry: the id of a user message of the session; this message is a new version
     * of it (a new branch where it was). The earlier version stays, on its branch.
     */
    replaces: id.optional(),
    /**
     * The id of the message this one follows (a new branch there when others followed it);
     * after a message with tool calls, it follows their results. Unset: after the end of
     * the open branch.
     */
    after: id.optional(),
    /** resources attached with `@`: read when the message is sent, stored with it */
    attachments: z.array(resourceRefSchema).max(10).optional(),
    /** files attached (`attachments.add`, `attachments.addPicked`): their tokens, in order */
    files: z.array(id).max(100).optional(),
    /** a server's prompt (`/server:prompt`): its messages are sent instead of `text` */
    prompt: promptRefSchema.optional(),
    /**
     * A new chat: the assistant it starts with (unset: the default assistant). With
     * `sessionId`: the session switches to it from this turn on.
     */
    assistantId: id.optional(),
  }),
  /**
   * Regenerate: another answer to a user message (`messageId`, or an answer to it): a new
   * branch after it; the earlier answer stays, on its own.
   */
  'chat.regenerate': z.strictObject({ sessionId: id, messageId: id, model: text(500).optional() }),
  'chat.stop': z.strictObject({ turnId: id }),
  /**
   * A file the user attaches (dropped, pasted, chosen in browser mode's file input): read
   * now, once; refused (`attachment_refused`) with the file's name and why. Browser mode
   * sends the bytes to its upload address instead, which calls this route.
   */
  'attachments.add': z.strictObject({
    name: z.string().min(1).max(1000),
    data: z.instanceof(Uint8Array),
  }),
  /** the desktop app's open dialog for files to attach (browser mode: `unavailable`) */
  'attachments.pick': z.strictObject({}),
  /** reads one file chosen in `attachments.pick` (by its pick id) */
  'attachments.addPicked': z.strictObject({ pickId: id }),
  /** a stored attachment's file (the large view of an image) */
  'attachments.get': z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** a stored image's small preview (the history's thumbnails) */
  'attachments.thumbnail': z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/) }),
  /** a stored document's extracted text ("Show extracted text") */
  'attachments.text': z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/) }),
  /**
   * A PDF attached in the window that has no text layer (a scan): its first pages drawn as
   * images, each read like an attached image (its own token), named after `name` and the
   * page; refused (`attachment_refused`) when it is no stored PDF or cannot be drawn
   */
  'attachments.pdfPages': z.strictObject({
    id: z.string().regex(/^[0-9a-f]{64}$/),
    name: z.string().min(1).max(1000),
  }),
  'chat.attach': z.strictObject({ sessionId: id }),
  'chat.status': z.strictObject({}),
  /**
   * Voice input: starts listening through the voice server (finals go to `sessionId`; none:
   * the first starts a new chat). Already listening: finals go to this chat from now on.
   */
  'voice.start': z.strictObject({
    sessionId: id.nullable().optional(),
    source: voiceSourceSchema.optional(),
  }),
  /** stops listening (the server's session is closed); finals already queued are still sent */
  'voice.stop': z.strictObject({}),
  'voice.status': z.strictObject({}),
  'approvals.respond': z.strictObject({
    requestId: id,
    decision: z.enum(['allow_once', 'allow_always', 'deny']),
    reason: text(2000).optional(),
  }),
  'elicitations.respond': z.strictObject({
    requestId: id,
    action: z.enum(['accept', 'decline', 'cancel']),
    /** accept: the answer, checked against the server's schema before it is sent */
    content: z
      .record(
        z.string().max(1000),
        z.union([
          z.string().max(100_000),
          z.number(),
          z.boolean(),
          z.array(z.string().max(10_000)).max(1000),
        ]),
      )
      .optional(),
  }),
  'sessions.list': z.strictObject({ ...page, includeArchived: z.boolean().optional() }),
  'sessions.get': z.strictObject({
    id,
    beforeSeq: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  }),
  'sessions.search': z.strictObject({
    query: text(1000),
    order: z.enum(['newest', 'ranked']).optional(),
    ...page,
  }),
  /**
   * Opens the branch that shows a message, by its number (`seq`: "‹ 2/3 ›") or its id (a
   * search hit on another branch). Unchanged when the open branch holds it already.
   */
  'sessions.openBranch': z
    .strictObject({ id, seq: z.number().int().positive().optional(), messageId: id.optional() })
    .refine((v) => (v.seq === undefined) !== (v.messageId === undefined), {
      message: 'Give either seq or messageId.',
    }),
  /**
   * "Branch into new chat": a new chat holding the path up to a message (its number or
   * id); its title says where it came from and its origin links back
   */
  'sessions.fork': z
    .strictObject({ id, seq: z.number().int().positive().optional(), messageId: id.optional() })
    .refine((v) => (v.seq === undefined) !== (v.messageId === undefined), {
      message: 'Give either seq or messageId.',
    }),
  'sessions.rename': z.strictObject({ id, title: text(500) }),
  'sessions.pin': z.strictObject({ id, pinned: z.boolean() }),
  /** switches the session's model from its next turn on */
  'sessions.setModel': z.strictObject({ id, model: z.string().min(1).max(500) }),
  /** switches the session's assistant from its next turn on (a running turn keeps its own) */
  'sessions.setAssistant': z.strictObject({ id, assistantId: id }),
  'sessions.delete': z.strictObject({ id }),
  'sessions.export': z.strictObject({ id, format: z.enum(['md', 'json']) }),
  /** summarizes the middle of the conversation now (`/compact`) */
  'sessions.compact': z.strictObject({ id }),
  /** removes a summary: the next request sends the messages it stood in for */
  'sessions.undoCompaction': z.strictObject({ id, summaryId: id }),
  /** the estimated size of the next request and the context window it must fit */
  'sessions.context': z.strictObject({ id }),
  /** "Keep in context": a pinned message is never summarized or left out */
  'messages.pin': z.strictObject({ sessionId: id, messageId: id, pinned: z.boolean() }),
  'settings.get': z.strictObject({}),
  'settings.update': z.strictObject({
    providers: z.array(providerInput).max(100).optional(),
    activeProviderId: settingsFields.activeProviderId.optional(),
    activeModel: settingsFields.activeModel.optional(),
    permissionPolicy: settingsFields.permissionPolicy.optional(),
    limits: limitsPatch.optional(),
    logRetentionDays: settingsFields.logRetentionDays.optional(),
    builtinTools: z.strictObject(settingsFields.builtinTools.shape).optional(),
    defaultWorkspace: settingsFields.defaultWorkspace.optional(),
    systemPrompt: settingsFields.systemPrompt.optional(),
    generateTitles: settingsFields.generateTitles.optional(),
    voice: z.strictObject(settingsFields.voice.shape).optional(),
    localModels: z.strictObject(settingsFields.localModels.shape).optional(),
    mcp: z.strictObject(settingsFields.mcp.shape).optional(),
    usage: z.strictObject(settingsFields.usage.shape).optional(),
    attachments: z.strictObject(settingsFields.attachments.shape).optional(),
    mcpRegistryUrl: settingsFields.mcpRegistryUrl.optional(),
    /** forget remembered "always allow" decisions */
    clearAlwaysAllow: z.boolean().optional(),
    /** forget one remembered "always allow" decision (matched by server, tool and fingerprint) */
    revokeAlwaysAllow: z
      .strictObject({ server: text(500), tool: text(500), fingerprint: text(500) })
      .optional(),
    /** set (a string) or remove (null) a provider's API key; it is never sent back */
    apiKeys: z.record(id, z.string().max(10_000).nullable()).optional(),
  }),
  'providers.test': z.strictObject({
    baseURL: z.url({ protocol: /^https?$/ }),
    apiKey: text(10_000).optional(),
    /** use the stored key of this provider when `apiKey` is not given */
    providerId: id.optional(),
  }),
  'providers.models': z.strictObject({ providerId: id.optional() }),
  'providers.detect': z.strictObject({}),
  'providers.info': z.strictObject({
    baseURL: z.url({ protocol: /^https?$/ }),
    /** the model to ask about (none: only the kind of server) */
    model: text(500).optional(),
    /** the provider's Ollama settings as typed, for the window it would get */
    ollamaNativeApi: z.boolean().optional(),
    /** ask the server again instead of using what it said in the last minutes */
    fresh: z.boolean().optional(),
    ollamaMaxContext: providerSchema.shape.ollamaMaxContext,
  }),
  'providers.status': z.strictObject({}),
  'tools.builtins': z.strictObject({}),
  'assistants.list': z.strictObject({}),
  'assistants.get': z.strictObject({ id }),
  'assistants.create': z.strictObject({ assistant: assistantDraftSchema }),
  /** replaces everything the user sets (a field left out is unset: the settings' value) */
  'assistants.update': z.strictObject({ id, assistant: assistantDraftSchema }),
  /** a copy named `name`, else "<name> (copy)" (numbered when that is taken) */
  'assistants.duplicate': z.strictObject({
    id,
    name: z.string().trim().min(1).max(100).optional(),
  }),
  /** the default assistant cannot be deleted (`conflict`); sessions keep what they used */
  'assistants.delete': z.strictObject({ id }),
  /** the assistant as a JSON file (no id, no dates, no secrets) */
  'assistants.export': z.strictObject({ id }),
  /**
   * a file from `assistants.export`; a name already taken gets " (2)", " (3)", …; a permission
   * policy looser than the settings' is applied only with `allowPolicy` (the user agreed)
   */
  'assistants.import': z.strictObject({
    text: z.string().min(1).max(1_000_000),
    allowPolicy: z.boolean().optional(),
  }),
  /** the tools the model would be offered with this draft, from the servers connected now */
  'assistants.previewTools': z.strictObject({ assistant: assistantDraftSchema }),
  'mcp.list': z.strictObject({}),
  'mcp.add': z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/),
    config: mcpServerInput,
  }),
  'mcp.update': z.strictObject({
    name: id,
    config: mcpServerInput.optional(),
    enabled: z.boolean().optional(),
    trustAnnotations: z.boolean().optional(),
    /** show this server's interactive views (MCP Apps) on its tools' cards */
    allowViews: z.boolean().optional(),
    /**
     * Browser mode: the fingerprint of the command line the user confirmed
     * (`McpServerInfo.commandLine.fingerprint`); needed to enable a server that runs a command.
     * The desktop app asks with its own dialog instead.
     */
    confirmedFingerprint: z.string().max(200).optional(),
  }),
  /** Reads servers from pasted JSON (Claude Desktop format); `name` names a bare server object. */
  'mcp.parse': z.strictObject({
    text: z.string().max(200_000),
    name: z.string().max(200).optional(),
  }),
  /** Reads Claude Desktop's configuration file, for review (nothing is added). */
  'mcp.importClaude': z.strictObject({}),
  /** Servers of the MCP registry (`mcpRegistryUrl`) with one of the words, best first. */
  'mcp.registrySearch': z.strictObject({ query: z.string().trim().min(1).max(200) }),
  /** One server of the registry: who published it and each way to run it, for review. */
  'mcp.registryServer': z.strictObject({ name: text(200), version: text(200).optional() }),
  /**
   * Adds a registry server, switched off, run the way `option` says (`package:N`,
   * `remote:N`) with the values the user gave (by input id). Nothing runs until it is
   * switched on, which asks as for any server.
   */
  'mcp.registryInstall': z.strictObject({
    registryName: text(200),
    version: text(200).optional(),
    option: text(40),
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/),
    values: z.record(text(220), text(10_000)),
  }),
  /** Unpacks and checks an extension bundle (`.mcpb`) the page has, for review. */
  'mcp.extensionOpen': z.strictObject({
    name: text(255),
    data: z.instanceof(Uint8Array).refine((d) => d.length <= 200 * 1024 * 1024),
  }),
  /** The desktop app's open dialog for an extension bundle (browser mode: `unavailable`); null: cancelled. */
  'mcp.extensionPick': z.strictObject({}),
  /**
   * Installs an opened extension as a server, switched off, with the values the user gave
   * for its settings (by key; a setting of several values, one per line). Nothing runs until
   * it is switched on, which asks as for any server.
   */
  'mcp.extensionInstall': z.strictObject({
    stageId: id,
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/),
    values: z.record(text(64), text(10_000)),
  }),
  /** Forgets an opened extension that was not installed (its unpacked files are removed). */
  'mcp.extensionDiscard': z.strictObject({ stageId: id }),
  'mcp.remove': z.strictObject({ name: id }),
  'mcp.restart': z.strictObject({ name: id }),
  'mcp.logs': z.strictObject({ name: id }),
  /** starts logging in to a remote server (OAuth): the browser opens at its authorization address */
  'mcp.login': z.strictObject({ name: id }),
  'mcp.logout': z.strictObject({ name: id }),
  'mcp.resources': z.strictObject({}),
  'mcp.readResource': resourceRefSchema,
  'mcp.prompts': z.strictObject({}),
  'mcp.getPrompt': promptRefSchema,
  /** the connected tools that come with an interactive view (MCP Apps) */
  'mcp.toolViews': z.strictObject({}),
  /** reads a tool's view from its server and makes its document ready to load in a frame */
  'mcp.openView': z.strictObject({ server: id, tool: z.string().min(1).max(200) }),
  /** a tool call from a tool's view: the session's policy and approval, like a model's call */
  'mcp.viewCall': z.strictObject({
    sessionId: id,
    server: id,
    tool: z.string().min(1).max(200),
    arguments: z.record(z.string().max(200), z.unknown()),
  }),
  'logs.turns': z.strictObject({ sessionId: id, ...page }),
  /** the stored usage of a period (epoch ms, `until` exclusive), grouped, with its cost */
  'usage.report': z.strictObject({
    since: z.number().int().min(0).nullable().optional(),
    until: z.number().int().min(0).nullable().optional(),
    by: z.enum(USAGE_GROUPS),
  }),
  /** this month's spending against the monthly budget (Settings › Usage) */
  'usage.budget': z.strictObject({}),
  'app.info': z.strictObject({}),
  /** The desktop app's folder picker (browser mode: `unavailable`, a page cannot give a path). */
  'app.pickFolder': z.strictObject({
    title: z.string().min(1).max(200).optional(),
    defaultPath: z.string().max(4096).optional(),
  }),
  /** The desktop app's file picker for a GGUF model (browser mode: `unavailable`). */
  'app.pickModelFile': z.strictObject({}),
  /**
   * The desktop app's save dialog, then `content` written where the user chose (browser mode:
   * `unavailable`, the page downloads instead). `filename` is only the suggested name.
   */
  'app.saveFile': z.strictObject({
    filename: z.string().min(1).max(255),
    content: z.string().max(256 * 1024 * 1024),
    /** written beside the file, at these relative paths (a Markdown export's attachments) */
    files: z
      .array(
        z.strictObject({
          path: z.string().regex(/^[^/\\]{1,200}\/[^/\\]{1,200}$/),
          data: z.string().max(200 * 1024 * 1024),
        }),
      )
      .max(1000)
      .optional(),
  }),
  /**
   * After a request failed with `database_damaged`: moves the damaged database aside (it is
   * kept, for recovery) and starts a new, empty one, only with the user's consent (the
   * desktop app asks in a native dialog; in browser mode the page asks first). `conflict`
   * when no damage was found.
   */
  'app.replaceDamagedDatabase': z.strictObject({}),
  /** the local models (Settings › Models), this machine's memory, the runtime's process */
  'models.list': z.strictObject({}),
  /** copies a GGUF file from this machine (an absolute path) into the models folder */
  'models.add': z.strictObject({
    path: z.string().min(1).max(4096),
    name: text(100).optional(),
  }),
  'models.remove': z.strictObject({ name: text(200) }),
  /** whether the local runtime's process runs, and its pid */
  'models.runtime': z.strictObject({}),
  /** GGUF repositories on the hub whose name matches */
  'models.search': z.strictObject({ query: z.string().trim().min(1).max(200) }),
  /** a hub repository's GGUF files: size, quantization, whether each fits this machine */
  'models.files': z.strictObject({ repo: z.string().min(3).max(200) }),
  /**
   * Starts downloading a hub file (or resumes it): checked first (not there, too large for
   * the memory, a name in use); progress comes as `models.download` events
   */
  'models.pull': z.strictObject({
    repo: z.string().min(3).max(200),
    file: z.string().min(1).max(500).optional(),
    name: text(100).optional(),
  }),
  'models.pause': z.strictObject({ id: z.string().min(1).max(800) }),
  /** the downloads of this run, and their state */
  'models.downloads': z.strictObject({}),
  /** the small model the first run offers (null: none fits this machine) */
  'models.recommended': z.strictObject({}),
} satisfies Record<keyof RouteOutputs, z.ZodType>

/** What each route answers. */
export interface RouteOutputs {
  'chat.send': { sessionId: string; turnId: string }
  'chat.regenerate': { sessionId: string; turnId: string }
  'chat.stop': { stopped: boolean }
  'attachments.add': AttachmentTaken
  /** the files chosen (none: cancelled); each is read with `attachments.addPicked` */
  'attachments.pick': { files: { pickId: string; name: string; bytes: number }[] }
  'attachments.addPicked': AttachmentTaken
  'attachments.get': { mediaType: string; data: string }
  /** a `data:` URL; null when the file is no longer stored */
  'attachments.thumbnail': { url: string | null }
  /** null when the file is no longer stored */
  'attachments.text': { text: string | null }
  /** the pages, in order */
  'attachments.pdfPages': { pages: AttachmentTaken[] }
  'voice.start': VoiceStatus
  'voice.stop': VoiceStatus
  'voice.status': VoiceStatus
  'chat.attach': {
    /** the running turn's events so far, or null when no turn is running */
    turn: { turnId: string; events: SequencedAgentEvent[] } | null
    /** approval requests still waiting for an answer */
    pendingApprovals: ApprovalRequestEvent[]
    /** servers' questions (elicitations) still waiting for an answer (absent: none) */
    pendingElicitations?: ElicitationRequestEvent[]
  }
  /** every running turn and every approval still waiting, in all sessions */
  'chat.status': {
    turns: { sessionId: string; turnId: string }[]
    pendingApprovals: ApprovalRequestEvent[]
    pendingElicitations?: ElicitationRequestEvent[]
  }
  'approvals.respond': { accepted: boolean }
  /** `error`: the answer does not fit the form (nothing was sent) */
  'elicitations.respond': { accepted: boolean; error?: string }
  'sessions.list': { sessions: SessionRecord[]; total: number }
  /** a page of the open branch (from its end, or before `beforeSeq`) and its versions */
  'sessions.get': {
    session: SessionRecord
    messages: StoredMessage[]
    hasMore: boolean
    /** the versions along the branch (absent: none) */
    versions?: BranchVersions
  }
  'sessions.openBranch': SessionRecord
  'sessions.fork': SessionRecord
  'sessions.search': { hits: SearchHit[] }
  'sessions.rename': SessionRecord
  'sessions.pin': SessionRecord
  'sessions.setModel': SessionRecord
  'sessions.setAssistant': SessionRecord
  'sessions.delete': { deleted: boolean }
  /**
   * `files`: a Markdown export's attached files, by their path relative to it (a folder
   * beside it that its links point into), base64; `app.saveFile` writes them beside it
   */
  'sessions.export': {
    filename: string
    mimeType: string
    content: string
    files: { path: string; data: string }[]
  }
  /** `compacted: false`: there was nothing between the first message and the last exchanges */
  'sessions.compact': {
    compacted: boolean
    summaryId: string | null
    coveredFrom: number | null
    coveredTo: number | null
    tokensBefore: number
    tokensAfter: number
    fallback: boolean
  }
  'sessions.undoCompaction': { removed: boolean }
  'sessions.context': {
    estimatedTokens: number
    /** 0: unknown (fitting off) */
    windowTokens: number
    compactAtPercent: number
    /** where the window comes from, in words */
    windowSource: string
  }
  'messages.pin': StoredMessage
  'settings.get': SettingsView
  'settings.update': SettingsView
  'providers.test': { models: string[] }
  /**
   * The models a provider serves. Without `providerId`: the provider a new chat would use
   * (the environment, then the settings, then a local server found running), and the
   * model it would take (null: none is configured).
   */
  'providers.models': { models: string[]; defaultModel: string | null }
  /** the built-in tools (switched on or off in settings) and the workspace they use by default */
  'tools.builtins': { tools: BuiltinToolInfo[]; defaultWorkspace: string }
  /** every assistant, by name; `defaultId`: the one a new chat starts with */
  'assistants.list': { assistants: Assistant[]; defaultId: string }
  'assistants.get': Assistant
  'assistants.create': Assistant
  'assistants.update': Assistant
  'assistants.duplicate': Assistant
  'assistants.delete': { deleted: boolean }
  'assistants.export': { filename: string; mimeType: string; content: string }
  /**
   * `renamedFrom`: the file's name, when it was taken and the import got another;
   * `policyNotApplied`: the file's permission policy, when it is looser than the settings' and
   * was not applied (the assistant follows the settings' policy)
   */
  'assistants.import': {
    assistant: Assistant
    renamedFrom: string | null
    policyNotApplied: PermissionPolicy | null
  }
  'assistants.previewTools': AssistantToolsPreview
  /** every local server candidate (the usual ones or CAIRN_LOCAL_SERVERS), probed at once */
  'providers.detect': { servers: LocalServerStatus[] }
  /** what kind of server a base URL is, and what it says about one model */
  'providers.info': ServerInfoView
  /** whether a provider is configured (settings or the environment): false on a first run */
  'providers.status': ProviderStatus
  /** `fromFile`: the servers come from `--mcp-config` for this run and cannot be changed here */
  'mcp.list': { servers: McpServerInfo[]; fromFile: boolean }
  'mcp.add': { servers: McpServerInfo[] }
  'mcp.update': { servers: McpServerInfo[] }
  'mcp.remove': { servers: McpServerInfo[] }
  'mcp.restart': { server: McpServerInfo }
  'mcp.logs': { name: string; stderrTail: string }
  /** the address opened (null when no login was needed); the server turns ready once it is done */
  'mcp.login': { server: McpServerInfo; authorizationUrl: string | null }
  'mcp.logout': { server: McpServerInfo }
  /** the ready servers' resources and templates; a server that failed to list says why */
  'mcp.resources': {
    resources: McpResource[]
    templates: McpResourceTemplate[]
    errors: { server: string; message: string }[]
  }
  /** a resource as a message would carry it: a link naming it, then its text or image */
  'mcp.readResource': { parts: ContentPart[] }
  'mcp.prompts': { prompts: McpPrompt[]; errors: { server: string; message: string }[] }
  /** a prompt's messages, with its arguments filled in */
  'mcp.getPrompt': { messages: McpPromptMessage[] }
  'mcp.toolViews': { views: ToolViewInfo[] }
  'mcp.openView': OpenedView
  'mcp.viewCall': ViewCallResult
  'mcp.parse': { servers: McpServerDraft[] }
  'mcp.importClaude': { file: string; servers: McpServerDraft[] }
  'mcp.registrySearch': RegistrySearchResult
  'mcp.registryServer': { registry: string; server: RegistryServerView }
  'mcp.registryInstall': { servers: McpServerInfo[] }
  'mcp.extensionOpen': ExtensionReview
  'mcp.extensionPick': { review: ExtensionReview | null }
  'mcp.extensionInstall': { servers: McpServerInfo[] }
  'mcp.extensionDiscard': { discarded: boolean }
  'logs.turns': { total: number; items: TurnLogItem[] }
  'usage.report': UsageReport
  'usage.budget': BudgetStatus
  'app.info': AppInfo
  /** null: the user cancelled */
  'app.pickFolder': { path: string | null }
  /** null: the user cancelled */
  'app.pickModelFile': { path: string | null }
  /** where the file was written; null: the user cancelled */
  'app.saveFile': { path: string | null }
  /** where the damaged database was moved; null: the user declined */
  'app.replaceDamagedDatabase': { movedTo: string | null }
  'models.list': LocalModelsView
  'models.add': LocalModel
  'models.remove': { removed: string }
  'models.runtime': { running: boolean; pid: number | null }
  'models.search': { repos: HubRepo[] }
  'models.files': { files: HubFile[] }
  'models.pull': { download: ModelDownload }
  'models.pause': { paused: boolean }
  'models.downloads': { downloads: ModelDownload[] }
  'models.recommended': { model: RecommendedModel | null }
}

/** A file read and stored for a message not yet sent. */
export interface AttachmentTaken {
  /** what `chat.send` names it by (`files`) */
  token: string
  part: AttachmentPart
  /** an image's small preview (`data:` URL) made by the engine; null for documents */
  thumbnail: string | null
}

export type RouteName = keyof RouteOutputs
export type RouteInput<R extends RouteName> = z.input<(typeof routeInputs)[R]>
export type RouteOutput<R extends RouteName> = RouteOutputs[R]

/** A route's answer; a failure's code is one of `errors.ts`'s closed list. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorInfo }
