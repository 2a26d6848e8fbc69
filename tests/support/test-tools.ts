/**
 * In-process tools for agent tests: a ToolHost with tools that behave in the ways the
 * loop must handle (read-only, writing, slow, failing, huge, image, never finishing).
 */
import type {
  ToolDescriptor,
  ToolHost,
  ToolOutcome,
  ToolCallScope,
} from '../../src-main/core/ports'

export interface ToolCallLog {
  name: string
  args: Record<string, unknown>
  startedAt: number
  endedAt?: number
  aborted?: boolean
}

type Impl = (args: Record<string, unknown>, ctx: ToolCallScope) => Promise<ToolOutcome>

interface TestTool {
  descriptor: ToolDescriptor
  impl: Impl
}

export function descriptor(
  name: string,
  description: string,
  properties: Record<string, unknown>,
  readOnly: boolean,
  required: string[] = [],
): ToolDescriptor {
  return {
    name,
    server: 'test',
    tool: name,
    description,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    annotations: readOnly ? { readOnlyHint: true } : {},
    trusted: true,
    fingerprint: `test:${name}:v1`,
  }
}

const text = (t: string): ToolOutcome => ({ content: [{ type: 'text', text: t }] })

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(new Error('aborted'))
    })
  })
}

export class TestToolHost implements ToolHost {
  readonly calls: ToolCallLog[] = []
  private readonly tools = new Map<string, TestTool>()

  constructor() {
    this.add(
      descriptor(
        'read_note',
        'Reads a note by key.',
        { key: { type: 'string' }, delayMs: { type: 'number' } },
        true,
        ['key'],
      ),
      async (args, ctx) => {
        if (typeof args['delayMs'] === 'number') await sleep(args['delayMs'], ctx.signal)
        return text(`note ${String(args['key'])}: content of ${String(args['key'])}`)
      },
    )
    this.add(
      descriptor(
        'write_note',
        'Writes a note.',
        { key: { type: 'string' }, text: { type: 'string' } },
        false,
        ['key', 'text'],
      ),
      async (args) => text(`wrote ${String(args['key'])}`),
    )
    this.add(descriptor('fail', 'Always throws.', {}, false), async () => {
      throw new Error('the disk is on fire')
    })
    this.add(descriptor('soft_fail', 'Returns an error result.', {}, true), async () => ({
      content: [{ type: 'text', text: 'permission denied by the file system' }],
      isError: true,
    }))
    this.add(
      descriptor('huge', 'Returns a lot of text.', { size: { type: 'number' } }, true),
      async (args) => text('x'.repeat(typeof args['size'] === 'number' ? args['size'] : 100_000)),
    )
    this.add(descriptor('picture', 'Returns an image.', {}, true), async () => ({
      content: [
        { type: 'text', text: 'a red dot' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo='.repeat(10) },
      ],
    }))
    this.add(
      descriptor('wait_forever', 'Never finishes unless aborted.', {}, false),
      async (_a, ctx) => {
        await sleep(3_600_000, ctx.signal)
        return text('never')
      },
    )
    this.add(
      descriptor('ignore_abort', 'Never finishes, even when aborted.', {}, false),
      () => new Promise(() => {}),
    )
  }

  add(d: ToolDescriptor, impl: Impl): void {
    this.tools.set(d.name, { descriptor: d, impl })
  }

  listTools(): ToolDescriptor[] {
    return [...this.tools.values()].map((t) => t.descriptor)
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolCallScope,
  ): Promise<ToolOutcome> {
    const tool = this.tools.get(name)
    if (!tool) throw new Error(`no tool ${name}`)
    const log: ToolCallLog = { name, args, startedAt: performance.now() }
    this.calls.push(log)
    ctx.signal.addEventListener('abort', () => (log.aborted = true))
    try {
      return await tool.impl(args, ctx)
    } finally {
      log.endedAt = performance.now()
    }
  }
}
