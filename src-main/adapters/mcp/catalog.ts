/**
 * The resources and prompts of every ready MCP server, for the composer's `@` picker and
 * `/server:prompt` commands. A server's `resources/list_changed`, `resources/updated` (for
 * the resources it lets us subscribe to) and `prompts/list_changed` tell the listeners, so
 * the window lists again without the server being restarted.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { ContentPart } from '../../../src-preload/contract/dto'
import type {
  McpPrompt,
  McpPromptMessage,
  McpResource,
  McpResourceTemplate,
  ResourceRef,
} from '../../../src-preload/contract/mcp-catalog'
import { getPromptMessages, listPrompts } from './prompts'
import { expandTemplate, listResources, readResourceParts } from './resources'

/** resources of one server subscribed to at most */
const MAX_SUBSCRIPTIONS = 20

export type CatalogChange = { server: string; what: 'resources' | 'prompts' }

interface ClientSource {
  readonly name: string
  readyClient(): Client | null
}

export class CatalogError extends Error {}

export class McpCatalog {
  private readonly listeners = new Set<(c: CatalogChange) => void>()
  private readonly subscribed = new WeakMap<Client, Set<string>>()

  constructor(private readonly sources: () => readonly ClientSource[]) {}

  onChange(listener: (c: CatalogChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** called for each new session with a server: its change notifications reach the listeners */
  attach(server: string, client: Client): void {
    const tell = (what: CatalogChange['what']) => () => {
      for (const l of [...this.listeners]) l({ server, what })
    }
    client.setNotificationHandler(ResourceListChangedNotificationSchema, tell('resources'))
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, tell('resources'))
    client.setNotificationHandler(PromptListChangedNotificationSchema, tell('prompts'))
  }

  async resources(): Promise<{
    resources: McpResource[]
    templates: McpResourceTemplate[]
    errors: { server: string; message: string }[]
  }> {
    const all = await Promise.all(
      this.ready().map(async ([name, client]) => {
        try {
          const r = await listResources(name, client)
          void this.subscribe(client, r.resources)
          return { ...r, error: null }
        } catch (e) {
          return { resources: [], templates: [], error: { server: name, message: messageOf(e) } }
        }
      }),
    )
    return {
      resources: all.flatMap((r) => r.resources),
      templates: all.flatMap((r) => r.templates),
      errors: all.flatMap((r) => (r.error ? [r.error] : [])),
    }
  }

  /** reads a resource (or a template filled with its values) into a message's parts */
  async read(ref: ResourceRef, signal?: AbortSignal): Promise<ContentPart[]> {
    const client = this.clientOf(ref.server)
    const uri =
      ref.uri ?? (ref.uriTemplate ? expandTemplate(ref.uriTemplate, ref.values ?? {}) : null)
    if (!uri) throw new CatalogError('Name the resource to read: its URI or a template.')
    try {
      return await readResourceParts(client, ref.server, uri, ref.name, signal)
    } catch (e) {
      throw new CatalogError(`The server "${ref.server}" could not read ${uri}: ${messageOf(e)}`)
    }
  }

  async prompts(): Promise<{
    prompts: McpPrompt[]
    errors: { server: string; message: string }[]
  }> {
    const all = await Promise.all(
      this.ready().map(async ([name, client]) => {
        try {
          return { prompts: await listPrompts(name, client), error: null }
        } catch (e) {
          return { prompts: [], error: { server: name, message: messageOf(e) } }
        }
      }),
    )
    return {
      prompts: all.flatMap((r) => r.prompts),
      errors: all.flatMap((r) => (r.error ? [r.error] : [])),
    }
  }

  async prompt(
    server: string,
    name: string,
    args: Record<string, string>,
  ): Promise<McpPromptMessage[]> {
    const client = this.clientOf(server)
    try {
      return await getPromptMessages(server, client, name, args)
    } catch (e) {
      throw new CatalogError(
        `The server "${server}" could not give the prompt ${name}: ${messageOf(e)}`,
      )
    }
  }

  private ready(): [string, Client][] {
    return this.sources().flatMap((s) => {
      const c = s.readyClient()
      return c ? [[s.name, c] as [string, Client]] : []
    })
  }

  private clientOf(server: string): Client {
    const client = this.sources()
      .find((s) => s.name === server)
      ?.readyClient()
    if (!client) throw new CatalogError(`The MCP server "${server}" is not running.`)
    return client
  }

  /** asks to hear when listed resources change, where the server allows it */
  private async subscribe(client: Client, resources: McpResource[]): Promise<void> {
    if (client.getServerCapabilities()?.resources?.subscribe !== true) return
    let done = this.subscribed.get(client)
    if (!done) this.subscribed.set(client, (done = new Set()))
    for (const r of resources) {
      if (done.size >= MAX_SUBSCRIPTIONS) return
      if (done.has(r.uri)) continue
      done.add(r.uri)
      await client.subscribeResource({ uri: r.uri }).catch(() => {})
    }
  }
}

function messageOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 500)
}
