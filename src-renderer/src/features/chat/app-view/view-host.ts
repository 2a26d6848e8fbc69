/**
 * The host side of a tool view's JSON-RPC over postMessage (MCP Apps): every message from
 * the view is checked (`contract/view-messages.ts`) and rate-limited before anything is
 * done with it; `ui/initialize` gets the host's context (theme, display mode, size), then
 * the view hears the tool's input and result; `tools/call` goes to the engine, which runs
 * it through the permission policy and the approval dialog; `ui/open-link` opens only once
 * the user confirmed the address; size changes resize the frame; teardown says goodbye.
 * Methods Cairn does not offer (`ui/message`, `ui/update-model-context`, resources…) are
 * answered with "method not found".
 */
import type { ContentPart } from '../../../../../src-preload/contract/dto'
import type { ViewCallResult } from '../../../../../src-preload/contract/mcp-apps'
import {
  parseViewMessage,
  RPC,
  type ViewNotification,
  type ViewRequest,
} from '../../../../../src-preload/contract/view-messages'
import { VIEW_PROTOCOL_VERSION } from '../../../../../src-preload/contract/mcp-apps'

/** messages a view may send in a burst, and how many more it gets each second */
export const VIEW_BURST = 40
export const VIEW_PER_SECOND = 20
/** the tallest a view's frame grows */
export const MAX_VIEW_HEIGHT = 800

export interface ViewHostDeps {
  /** posts to the view's window (`targetOrigin` '*': its origin is opaque) */
  post(message: unknown): void
  /** the host's context: theme and width now */
  context(): { theme: 'light' | 'dark'; width: number }
  platform: 'desktop' | 'web'
  version: string
  tool: { name: string; server: string }
  /** runs a call from the view (approval included); rejects with a refusal's words */
  callTool(name: string, args: Record<string, unknown>): Promise<ViewCallResult>
  /** asks the user to confirm the address; resolves whether it was opened */
  openLink(url: string): Promise<boolean>
  onHeight(height: number): void
  /** something the view did that the card says (a refused message, rate limiting) */
  onProblem(problem: string): void
  now?: () => number
}

/** Cairn's content parts as MCP content blocks, for the view. */
export function toContentBlocks(parts: readonly ContentPart[]): unknown[] {
  return parts.map((p) => {
    switch (p.type) {
      case 'text':
        return { type: 'text', text: p.text }
      case 'image':
        return { type: 'image', data: p.data, mimeType: p.mimeType }
      case 'resource_link':
        return {
          type: 'resource_link',
          uri: p.uri,
          name: p.name ?? p.uri,
          ...(p.mimeType ? { mimeType: p.mimeType } : {}),
        }
      case 'resource':
        return {
          type: 'resource',
          resource: {
            uri: p.uri,
            text: p.text ?? '',
            ...(p.mimeType ? { mimeType: p.mimeType } : {}),
          },
        }
    }
  })
}

export class ViewHost {
  private tokens = VIEW_BURST
  private last: number
  private initialized = false
  private input: Record<string, unknown> | null = null
  private result: unknown = null
  private nextId = 1
  private closed = false

  constructor(private readonly d: ViewHostDeps) {
    this.last = (d.now ?? Date.now)()
  }

  /** One message from the view's window (the caller checked it came from the frame). */
  receive(data: unknown): void {
    if (this.closed) return
    const m = parseViewMessage(data)
    if (m.kind === 'dropped') return this.d.onProblem(`a message was refused: ${m.why}`)
    if (m.kind === 'response') return
    if (!this.take()) {
      if (m.kind === 'request' || m.kind === 'bad-request')
        this.error(
          m.kind === 'request' ? m.request.id : m.id,
          RPC.rateLimited,
          'Too many messages: slow down.',
        )
      return
    }
    if (m.kind === 'bad-request') return this.error(m.id, m.code, m.message)
    if (m.kind === 'notification') return this.notified(m.notification)
    void this.answer(m.request)
  }

  /** the tool's arguments, once known (sent now if the view is ready) */
  toolInput(args: Record<string, unknown>): void {
    this.input = args
    if (this.initialized) this.notify('ui/notifications/tool-input', { arguments: args })
  }

  /** the tool's result, once known (sent now if the view is ready) */
  toolResult(result: { content: unknown[]; isError: boolean; structuredContent?: unknown }): void {
    this.result = result
    if (this.initialized) this.notify('ui/notifications/tool-result', result)
  }

  /** the theme changed */
  themeChanged(theme: 'light' | 'dark'): void {
    if (this.initialized) this.notify('ui/notifications/host-context-changed', { theme })
  }

  /** the card goes away: the view is told (it cannot delay it) */
  teardown(): void {
    if (this.closed) return
    this.send({
      jsonrpc: '2.0',
      id: `teardown-${this.nextId++}`,
      method: 'ui/resource-teardown',
      params: {},
    })
    this.closed = true
  }

  private take(): boolean {
    const now = (this.d.now ?? Date.now)()
    this.tokens = Math.min(VIEW_BURST, this.tokens + ((now - this.last) / 1000) * VIEW_PER_SECOND)
    this.last = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }

  private notified(n: ViewNotification): void {
    switch (n.method) {
      case 'ui/notifications/initialized':
        this.initialized = true
        if (this.input) this.notify('ui/notifications/tool-input', { arguments: this.input })
        if (this.result) this.notify('ui/notifications/tool-result', this.result)
        return
      case 'ui/notifications/size-changed':
        if (n.params.height !== undefined)
          this.d.onHeight(Math.min(MAX_VIEW_HEIGHT, Math.ceil(n.params.height)))
        return
      case 'ui/notifications/request-teardown':
      case 'notifications/message':
        return
    }
  }

  private async answer(r: ViewRequest): Promise<void> {
    switch (r.method) {
      case 'ui/initialize':
        return this.ok(r.id, this.initializeResult())
      case 'ping':
        return this.ok(r.id, {})
      case 'ui/request-display-mode':
        return this.ok(r.id, { mode: 'inline' })
      case 'ui/open-link': {
        const opened = await this.d.openLink(r.params.url)
        return this.ok(r.id, opened ? {} : { isError: true })
      }
      case 'tools/call':
        try {
          const res = await this.d.callTool(r.params.name, r.params.arguments ?? {})
          return this.ok(r.id, {
            content: toContentBlocks(res.content),
            isError: res.isError,
            ...(res.structuredContent !== undefined
              ? { structuredContent: res.structuredContent }
              : {}),
          })
        } catch (e) {
          return this.error(r.id, RPC.refused, e instanceof Error ? e.message : String(e))
        }
    }
  }

  private initializeResult(): Record<string, unknown> {
    const { theme, width } = this.d.context()
    return {
      protocolVersion: VIEW_PROTOCOL_VERSION,
      hostInfo: { name: 'Cairn', version: this.d.version },
      hostCapabilities: { openLinks: {}, serverTools: {} },
      hostContext: {
        theme,
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { width, maxHeight: MAX_VIEW_HEIGHT },
        platform: this.d.platform,
        toolInfo: { tool: { name: this.d.tool.name, inputSchema: { type: 'object' } } },
        locale: Intl.DateTimeFormat().resolvedOptions().locale,
      },
    }
  }

  private notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params })
  }

  private ok(id: string | number, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result })
  }

  private error(id: string | number, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } })
  }

  private send(message: unknown): void {
    if (!this.closed) this.d.post(message)
  }
}
