/**
 * The resources and prompts of every ready MCP server, for the composer's `@` picker and
 * `/server:prompt` commands. A server's `resources/list_changed`, `resources/updated` (for
 * the resources it lets us subscribe to) and `prompts/list_changed` tell the listeners, so
 * the window lists again without the server being restarted.
 */
import type { Client } from '@modelcontextprotocol/client'
import type { ContentPart } from '../../../src-preload/contract/dto'
import type {
  McpPrompt,
  McpPromptMessage,
  McpResource,
  McpResourceTemplate,
  ResourceRef,
} from '../../../src-preload/contract/resources-and-prompts'
import { ExpectedError } from '../../core/errors'
import type {
  McpResourcesAndPrompts,
  ResourcesOrPromptsChange,
  ViewResource,
} from '../../core/mcp-ports'
import { readViewResource } from './app-view'
import { getPromptMessages, listPrompts } from './prompts'
import { expandTemplate, listResources, readResourceParts } from './resources'

/** resources of one server subscribed to at most */
const MAX_SUBSCRIPTIONS = 20

type ListError = { server: string; message: string }

interface ClientSource {
  readonly name: string
  readyClient(): Client | null
}

export class ResourcesAndPrompts implements McpResourcesAndPrompts {
  private readonly listeners = new Set<(c: ResourcesOrPromptsChange) => void>()
  private readonly subscribed = new WeakMap<Client, Set<string>>()

  constructor(private readonly sources: () => readonly ClientSource[]) {}

  onChange(listener: (c: ResourcesOrPromptsChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** called for each new session with a server: its change notifications reach the listeners */
  attach(server: string, client: Client): void {
    const tell = (what: ResourcesOrPromptsChange['what']) => () => {
      for (const l of [...this.listeners]) l({ server, what })
    }
    client.setNotificationHandler('notifications/resources/list_changed', tell('resources'))
    client.setNotificationHandler('notifications/resources/updated', tell('resources'))
    client.setNotificationHandler('notifications/prompts/list_changed', tell('prompts'))
  }

  async resources(): Promise<{
    resources: McpResource[]
    templates: McpResourceTemplate[]
    errors: ListError[]
  }> {
    const { lists, errors } = await this.fromEach(async (name, client) => {
      const r = await listResources(name, client)
      void this.subscribe(client, r.resources)
      return r
    })
    return {
      resources: lists.flatMap((r) => r.resources),
      templates: lists.flatMap((r) => r.templates),
      errors,
    }
  }

  /** reads a resource (or a template filled with its values) into a message's parts */
  async read(ref: ResourceRef, signal?: AbortSignal): Promise<ContentPart[]> {
    const client = this.clientOf(ref.server)
    const uri =
      ref.uri ?? (ref.uriTemplate ? expandTemplate(ref.uriTemplate, ref.values ?? {}) : null)
    if (!uri)
      throw new ExpectedError('bad_request', 'Name the resource to read: its URI or a template.')
    try {
      return await readResourceParts(client, ref.server, uri, ref.name, signal)
    } catch (e) {
      throw new ExpectedError(
        'unavailable',
        `The server "${ref.server}" could not read ${uri}: ${messageOf(e)}`,
        { cause: e },
      )
    }
  }

  async prompts(): Promise<{
    prompts: McpPrompt[]
    errors: ListError[]
  }> {
    const { lists, errors } = await this.fromEach((name, client) => listPrompts(name, client))
    return { prompts: lists.flat(), errors }
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
      throw new ExpectedError(
        'unavailable',
        `The server "${server}" could not give the prompt ${name}: ${messageOf(e)}`,
        { cause: e },
      )
    }
  }

  /** reads a tool's view (an MCP Apps `ui://` resource) */
  async readView(server: string, uri: string, signal?: AbortSignal): Promise<ViewResource> {
    const client = this.clientOf(server)
    try {
      return await readViewResource(client, server, uri, signal)
    } catch (e) {
      if (e instanceof ExpectedError) throw e
      throw new ExpectedError(
        'unavailable',
        `The server "${server}" could not read its view ${uri}: ${messageOf(e)}`,
        { cause: e },
      )
    }
  }

  /** what every ready server lists (in their order), and what the others could not list */
  private async fromEach<T>(
    list: (name: string, client: Client) => Promise<T>,
  ): Promise<{ lists: T[]; errors: ListError[] }> {
    const all = await Promise.all(
      this.ready().map(async ([name, client]): Promise<{ list: T } | { error: ListError }> => {
        try {
          return { list: await list(name, client) }
        } catch (e) {
          return { error: { server: name, message: messageOf(e) } }
        }
      }),
    )
    return {
      lists: all.flatMap((r) => ('list' in r ? [r.list] : [])),
      errors: all.flatMap((r) => ('error' in r ? [r.error] : [])),
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
    if (!client)
      throw new ExpectedError('unavailable', `The MCP server "${server}" is not running.`)
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
