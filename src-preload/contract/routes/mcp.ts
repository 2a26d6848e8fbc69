/**
 * The routes of MCP servers: adding, reviewing and running them, logins, resources, prompts,
 * tools' views and the registry.
 */
import { z } from 'zod'
import type { ContentPart, McpServerDraft, McpServerInfo } from '../dto'
import { mcpServerInput } from '../mcp-config-schema'
import type { OpenedView, ToolViewInfo, ViewCallResult } from '../mcp-apps'
import type { RegistrySearchResult, RegistryServerView } from '../mcp-registry'
import type { ExtensionReview } from '../mcpb'
import type { SkillInfo } from '../skills'
import {
  promptRefSchema,
  resourceRefSchema,
  type McpPrompt,
  type McpPromptMessage,
  type McpResource,
  type McpResourceTemplate,
} from '../resources-and-prompts'
import { id, text } from './fields'

export const mcpInputs = {
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
  /** The data directory's skills (`skills/`), as use_skill offers them. */
  'skills.list': z.strictObject({}),
  /** One skill's SKILL.md, as text. */
  'skills.show': z.strictObject({ name: text(64) }),
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
} satisfies Record<keyof McpOutputs, z.ZodType>

/** What each route answers. */
export interface McpOutputs {
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
  'skills.list': { skills: SkillInfo[]; folder: string }
  'skills.show': { name: string; text: string }
}
