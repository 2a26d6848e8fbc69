/**
 * GroupStdioTransport with real child processes: server-everything driven by the SDK Client,
 * and the misbehaving fixtures in tests/fixtures/mcp.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { ProcessRegistry } from '../../src-main/adapters/mcp/process-registry'
import {
  isAlive,
  isGroupAlive,
  signalGroup,
  waitUntil,
} from '../../src-main/adapters/mcp/process-tree'
import { ByteTail, LineSplitter } from '../../src-main/adapters/mcp/stderr-tail'
import { responseId } from '../../src-main/adapters/mcp/response-id'
import {
  GroupStdioTransport,
  type GroupStdioOptions,
} from '../../src-main/adapters/mcp/stdio-transport'

const posix = process.platform !== 'win32'
const EVERYTHING = join(
  process.cwd(),
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
)
const fixture = (name: string): string => join(process.cwd(), 'tests', 'fixtures', 'mcp', name)
const baseEnv = (): Record<string, string> => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin' })

const transports: GroupStdioTransport[] = []
const pidsToKill: number[] = []
const clients: Client[] = []
const dirs: string[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)))
  await Promise.all(transports.splice(0).map((t) => t.close().catch(() => undefined)))
  for (const pid of pidsToKill.splice(0)) {
    signalGroup(pid, 'SIGKILL')
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function transport(script: string, opts: Partial<GroupStdioOptions> = {}): GroupStdioTransport {
  const t = new GroupStdioTransport({
    command: process.execPath,
    args: [script],
    env: baseEnv(),
    closeGraceMs: 300,
    ...opts,
  })
  transports.push(t)
  return t
}

async function connect(t: GroupStdioTransport, timeout = 15_000): Promise<Client> {
  const client = new Client({ name: 'cairn-test', version: '0.0.0' })
  clients.push(client)
  await client.connect(t, { timeout })
  return client
}

async function echo(client: Client, message: string): Promise<unknown> {
  const out = await client.callTool({ name: 'echo', arguments: { message } })
  return out.content
}

describe('GroupStdioTransport with server-everything', () => {
  it('initializes, lists tools, calls echo, and leaves no process after close', async () => {
    const t = transport(EVERYTHING, { args: [EVERYTHING, 'stdio'] })
    let closes = 0
    const client = await connect(t)
    const onclose = t.onclose
    t.onclose = () => {
      closes++
      onclose?.()
    }
    const pid = t.pid
    expect(pid).toBeGreaterThan(0)
    const { tools } = await client.listTools()
    expect(tools.map((x) => x.name)).toContain('echo')
    expect(await echo(client, 'hello cairn')).toEqual([{ type: 'text', text: 'Echo: hello cairn' }])
    await client.close()
    expect(closes).toBe(1)
    expect(t.exit).not.toBeNull()
    expect(isAlive(pid!)).toBe(false)
    if (posix) expect(isGroupAlive(pid!)).toBe(false)
  })
})

describe('GroupStdioTransport with misbehaving servers', () => {
  it('skips banners and non-JSON-RPC stdout lines without errors', async () => {
    const noise: string[] = []
    const errors: Error[] = []
    const t = transport(fixture('banner-and-garbage.mjs'), { onStdoutNoise: (l) => noise.push(l) })
    t.onerror = (e) => errors.push(e)
    const client = await connect(t)
    expect(await echo(client, 'one')).toEqual([{ type: 'text', text: 'Echo: one' }])
    expect(await echo(client, 'two')).toEqual([{ type: 'text', text: 'Echo: two' }])
    expect(noise).toContain('Starting banner-and-garbage MCP server v1.0 ...')
    expect(noise).toContain('{"level":"info","msg":"valid JSON, but not JSON-RPC"}')
    expect(noise.some((l) => l.startsWith('log: sending message #'))).toBe(true)
    expect(t.stdoutNoiseLines).toBeGreaterThanOrEqual(noise.length)
    expect(t.stdoutNoiseTail()).toContain('log: sending message #')
    expect(errors).toEqual([])
  })

  it('drains a stderr flood into a bounded tail that ends with the last bytes', async () => {
    let seen = 0
    const t = transport(fixture('stderr-flood.mjs'), { onStderr: (s) => (seen += s.length) })
    const client = await connect(t)
    for (const m of ['a', 'b', 'last']) {
      expect(await echo(client, m)).toEqual([{ type: 'text', text: `Echo: ${m}` }])
    }
    await waitUntil(() => t.stderrTail().endsWith('ECHO_STDERR_END last\n'), 5000)
    const tail = t.stderrTail()
    expect(tail.endsWith('ECHO_STDERR_END last\n')).toBe(true)
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(65536)
    expect(Buffer.byteLength(tail)).toBeGreaterThan(60_000)
    // 1.5 MB + 3 × 256 KB went through; only the tail was kept
    expect(t.stderrBytes).toBeGreaterThan(2 * 1024 * 1024)
    expect(seen).toBe(t.stderrBytes)
  })

  it('keeps only stderrTailBytes when a smaller tail is asked for', async () => {
    const t = transport(fixture('stderr-flood.mjs'), {
      stderrTailBytes: 1000,
      env: { ...baseEnv(), FLOOD_BYTES: '200000' },
    })
    const client = await connect(t)
    await echo(client, 'small')
    await waitUntil(() => t.stderrTail().endsWith('ECHO_STDERR_END small\n'), 5000)
    expect(Buffer.byteLength(t.stderrTail())).toBe(1000)
    expect(t.stderrTail().endsWith('ECHO_STDERR_END small\n')).toBe(true)
  })

  it('rejects connect (no hang) when the server exits during initialize; exit and stderr explain it', async () => {
    const t = transport(fixture('exits-during-initialize.mjs'))
    let closes = 0
    const started = Date.now()
    const client = new Client({ name: 'cairn-test', version: '0.0.0' })
    clients.push(client)
    const connecting = client.connect(t, { timeout: 20_000 })
    const onclose = t.onclose
    t.onclose = () => {
      closes++
      onclose?.()
    }
    await expect(connecting).rejects.toThrow(/closed/i)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(t.exit).toEqual({ code: 3, signal: null })
    expect(t.stderrTail()).toContain('fatal: missing configuration EXAMPLE_API_TOKEN')
    expect(closes).toBe(1)
    await expect(t.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toThrow(
      /exited with code 3/,
    )
  })

  it('reports a server that exits before reading anything', async () => {
    const t = transport(fixture('exits-during-initialize.mjs'), {
      env: { ...baseEnv(), EXIT_BEFORE_READ: '1', EXIT_CODE: '9' },
    })
    const client = new Client({ name: 'cairn-test', version: '0.0.0' })
    clients.push(client)
    await expect(client.connect(t, { timeout: 20_000 })).rejects.toThrow()
    expect(t.exit).toEqual({ code: 9, signal: null })
    expect(t.stderrTail()).toContain('missing configuration')
  })

  it('times out on a server that never answers, then closes it', async () => {
    const t = transport(fixture('never-answers.mjs'))
    const client = new Client({ name: 'cairn-test', version: '0.0.0' })
    clients.push(client)
    await expect(client.connect(t, { timeout: 500 })).rejects.toThrow(/timed out/i)
    const pid = t.pid!
    await t.close()
    expect(isAlive(pid)).toBe(false)
    expect(t.stderrTail()).toContain('never-answers: got initialize')
  })

  it('fails a pending call and fires onclose once when the server crashes mid-call', async () => {
    const t = transport(fixture('crashes-mid-call.mjs'))
    const client = await connect(t)
    let closes = 0
    const onclose = t.onclose
    t.onclose = () => {
      closes++
      onclose?.()
    }
    expect(await echo(client, 'before')).toEqual([{ type: 'text', text: 'Echo: before' }])
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/closed/i)
    expect(t.exit).toEqual({ code: 70, signal: null })
    expect(t.stderrTail()).toContain('crashing on purpose')
    await expect(t.send({ jsonrpc: '2.0', id: 99, method: 'ping' })).rejects.toThrow(
      /not running|exited with code 70/,
    )
    await t.close() // idempotent after a crash
    expect(closes).toBe(1)
  })

  it.runIf(posix)(
    'close() kills a server and a grandchild that both ignore SIGTERM, within ~2× grace',
    async () => {
      const grace = 300
      const t = transport(fixture('grandchild-ignores-sigterm.mjs'), { closeGraceMs: grace })
      const client = await connect(t)
      const out = await client.callTool({ name: 'pids', arguments: {} })
      const [first] = out.content as { type: string; text: string }[]
      const { pid, grandchildPid } = JSON.parse(first!.text) as {
        pid: number
        grandchildPid: number
      }
      pidsToKill.push(grandchildPid)
      expect(pid).toBe(t.pid)
      expect(t.stderrTail()).toContain(`GRANDCHILD_PID=${grandchildPid}`)
      expect(isAlive(pid) && isAlive(grandchildPid)).toBe(true)
      const started = Date.now()
      await t.close()
      const elapsed = Date.now() - started
      expect(isAlive(pid)).toBe(false)
      expect(isAlive(grandchildPid)).toBe(false)
      expect(isGroupAlive(pid)).toBe(false)
      expect(t.exit?.signal).toBe('SIGKILL')
      expect(elapsed).toBeGreaterThanOrEqual(2 * grace - 50)
      // the server ignores SIGTERM for ever: only the SIGKILL after the graces ended the wait
      expect(elapsed).toBeLessThan(2 * grace + 15_000)
    },
  )

  it.runIf(posix)(
    'sweeps a grandchild that outlives its parent (the server exits on EOF)',
    async () => {
      const t = transport(fixture('grandchild-ignores-sigterm.mjs'), {
        env: { ...baseEnv(), EXIT_ON_EOF: '1' },
      })
      const client = await connect(t)
      const out = await client.callTool({ name: 'pids', arguments: {} })
      const [first] = out.content as { type: string; text: string }[]
      const { grandchildPid } = JSON.parse(first!.text) as { grandchildPid: number }
      pidsToKill.push(grandchildPid)
      await t.close()
      expect(t.exit).toEqual({ code: 0, signal: null })
      expect(isAlive(grandchildPid)).toBe(false)
    },
  )

  it('serves a slow starter once it is ready', async () => {
    const t = transport(fixture('slow-start.mjs'), { env: { ...baseEnv(), SLOW_START_MS: '400' } })
    const started = Date.now()
    const client = await connect(t)
    expect(Date.now() - started).toBeGreaterThanOrEqual(350)
    expect(await echo(client, 'late')).toEqual([{ type: 'text', text: 'Echo: late' }])
  })
})

describe('fixture servers behave as documented', () => {
  it('echo-server: every tool', async () => {
    const client = await connect(transport(fixture('echo-server.mjs')))
    const names = (await client.listTools()).tools.map((x) => x.name)
    expect(names).toEqual([
      'echo',
      'add',
      'list_changed_trigger',
      'progress',
      'image',
      'structured',
      'bad_structured',
      'error',
    ])
    const { tools } = await client.listTools()
    expect(tools.find((x) => x.name === 'echo')?.annotations?.readOnlyHint).toBe(true)
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([
      { type: 'text', text: '5' },
    ])
    let listChanged = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged++
    })
    await client.callTool({ name: 'list_changed_trigger', arguments: {} })
    await waitUntil(() => listChanged === 1, 3000)
    expect((await client.listTools()).tools.map((x) => x.name)).toContain('dynamic_1')
    const progress: number[] = []
    const done = await client.callTool(
      { name: 'progress', arguments: { steps: 3 } },
      {
        onprogress: (p) => progress.push(p.progress),
      },
    )
    expect(progress).toEqual([1, 2, 3])
    expect(done.content).toEqual([{ type: 'text', text: 'done 3' }])
    const image = await client.callTool({ name: 'image', arguments: {} })
    expect(image.content).toMatchObject([{ type: 'image', mimeType: 'image/png' }])
    const structured = await client.callTool({ name: 'structured', arguments: { a: 1, b: 2 } })
    expect(structured.structuredContent).toEqual({ sum: 3 })
    await expect(client.callTool({ name: 'bad_structured', arguments: {} })).rejects.toThrow(
      /structured content does not match/i,
    )
    const failed = await client.callTool({ name: 'error', arguments: {} })
    expect(failed.isError).toBe(true)
  })

  it('hang-on-call: hang never answers, reports progress, and counts cancellation', async () => {
    const client = await connect(transport(fixture('hang-on-call.mjs')))
    const controller = new AbortController()
    let progress = 0
    const hanging = client.callTool(
      { name: 'hang', arguments: { progressMs: 50 } },
      {
        signal: controller.signal,
        onprogress: () => progress++,
        timeout: 20_000,
      },
    )
    await waitUntil(() => progress >= 3, 5000)
    controller.abort('enough')
    await expect(hanging).rejects.toThrow()
    const stats = async (): Promise<string> => {
      const out = await client.callTool({ name: 'stats', arguments: {} })
      return (out.content as { text: string }[])[0]!.text
    }
    await waitUntil(() => false, 100)
    expect(JSON.parse(await stats())).toEqual({ started: 1, cancelled: 1 })
  })
})

describe('GroupStdioTransport lifecycle', () => {
  it('rejects start with an error naming the command when it does not exist', async () => {
    const t = new GroupStdioTransport({
      command: 'cairn-no-such-command-42',
      args: [],
      env: baseEnv(),
    })
    transports.push(t)
    await expect(t.start()).rejects.toThrow(/cairn-no-such-command-42.*not found/)
    expect(t.pid).toBeUndefined()
    await t.close()
    await expect(t.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow(
      /could not be started/,
    )
  })

  it('rejects start when the working directory does not exist', async () => {
    const t = transport(fixture('echo-server.mjs'), { cwd: join(tmpdir(), 'cairn-no-such-dir-42') })
    await expect(t.start()).rejects.toThrow(/cairn-no-such-dir-42 does not exist/)
  })

  it('passes exactly the given environment and cwd, and frames messages both ways', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cairn-transport-'))
    dirs.push(cwd)
    const script =
      'process.stdin.on("data", d => { const m = JSON.parse(String(d)); process.stdout.write(' +
      'JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { keys: Object.keys(process.env).sort(), ' +
      'cwd: process.cwd(), token: process.env.SERVER_TOKEN } }) + "\\n") })'
    const t = new GroupStdioTransport({
      command: process.execPath,
      args: ['-e', script],
      env: { ...baseEnv(), SERVER_TOKEN: 'abc' },
      cwd,
      closeGraceMs: 300,
    })
    transports.push(t)
    const got: JSONRPCMessage[] = []
    t.onmessage = (m) => got.push(m)
    await t.start()
    await t.send({ jsonrpc: '2.0', id: 7, method: 'describe' })
    await waitUntil(() => got.length > 0, 5000)
    expect(got[0]).toMatchObject({
      id: 7,
      result: {
        keys: ['PATH', 'SERVER_TOKEN'],
        token: 'abc',
        cwd: expect.stringContaining('cairn-transport-'),
      },
    })
  })

  it('close() is idempotent and concurrent closes fire onclose once', async () => {
    const t = transport(fixture('echo-server.mjs'))
    await connect(t)
    let closes = 0
    t.onclose = () => closes++
    await Promise.all([t.close(), t.close()])
    await t.close()
    expect(closes).toBe(1)
    expect(t.exit).toEqual({ code: 0, signal: null }) // exited on stdin EOF, no signal needed
    await expect(t.start()).rejects.toThrow(/already started/)
  })

  it.runIf(posix)('killNow() ends the group at once, and onclose follows', async () => {
    const t = transport(fixture('grandchild-ignores-sigterm.mjs'))
    const client = await connect(t)
    const out = await client.callTool({ name: 'pids', arguments: {} })
    const [first] = out.content as { type: string; text: string }[]
    const { grandchildPid } = JSON.parse(first!.text) as { grandchildPid: number }
    pidsToKill.push(grandchildPid)
    let closed = false
    t.onclose = () => (closed = true)
    t.killNow()
    expect(await waitUntil(() => closed, 3000)).toBe(true)
    expect(t.exit?.signal).toBe('SIGKILL')
    expect(await waitUntil(() => !isAlive(grandchildPid), 3000)).toBe(true)
  })

  it('records the running group in the registry and removes it after close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-transport-reg-'))
    dirs.push(dir)
    const registry = new ProcessRegistry(join(dir, 'mcp-processes.json'))
    const t = transport(fixture('echo-server.mjs'), { registry, serverName: 'echo' })
    await connect(t)
    expect(registry.entries()).toMatchObject([
      { pid: t.pid, ownerPid: process.pid, server: 'echo', command: process.execPath },
    ])
    await t.close()
    expect(registry.entries()).toEqual([])
  })
})

describe('output buffers', () => {
  it('ByteTail keeps the last bytes and never cuts a character at the start', () => {
    const tail = new ByteTail(8)
    tail.write('abc')
    expect(tail.text()).toBe('abc')
    tail.write('defghij')
    expect(tail.text()).toBe('cdefghij')
    tail.write(Buffer.from('é1234567')) // é is 2 bytes: its first byte falls out
    expect(tail.text()).toBe('1234567')
    expect(tail.bytesWritten).toBe(19)
  })

  it('LineSplitter splits across chunks and drops an overlong line', () => {
    const lines: string[] = []
    const dropped: [number, string, string][] = []
    const s = new LineSplitter(10)
    const push = (t: string): void =>
      s.push(
        Buffer.from(t),
        (l) => lines.push(l),
        (n, ends) => dropped.push([n, ends.head, ends.tail]),
      )
    push('ab')
    push('c\nde')
    push('f\n')
    push('0123456789abc')
    push('def')
    expect(dropped).toEqual([]) // told once the line has ended
    push('\nok\n')
    expect(lines).toEqual(['abc', 'def', 'ok'])
    expect(dropped).toEqual([[16, '0123456789abc', '0123456789abcdef']])
  })

  it('finds the id of an overlong response at either end of it, and nothing in a request', () => {
    expect(responseId('{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"xxx', '')).toBe(7)
    expect(
      responseId(
        '{"result":{"content":[{"type":"text","text":"xxxx',
        'xxxx"}]},"jsonrpc":"2.0","id":12}',
      ),
    ).toBe(12)
    expect(responseId('{"result":{"x":1', '"id" : "abc"}')).toBe('abc')
    expect(
      responseId('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"', '"id":3}'),
    ).toBeNull()
    expect(responseId('not json at all', '"id":3}')).toBeNull()
  })
})
