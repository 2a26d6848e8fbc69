/** The tool source: listing, schemas, annotations, disabled tools, errors. */
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { BUILTIN_TOOL_NAMES, BuiltinTools } from '../../src-main/adapters/builtin-tools'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { harness } from './harness'

const ctx = () => ({ signal: new AbortController().signal, sessionId: 's', toolCallId: 'c' })

describe('BuiltinTools', () => {
  it('is the trusted, ready source named cairn', async () => {
    const tools = new BuiltinTools({ workspace: () => '/nonexistent' })
    expect(tools.name).toBe('cairn')
    expect(tools.trusted).toBe(true)
    expect(tools.status()).toBe('ready')
    expect(tools.configFingerprint).toBe('cairn-builtin-v1')
    expect(await tools.whenReady(new AbortController().signal)).toBe(true)
  })

  it('lists every tool with a description, a strict schema and annotations', () => {
    // with a project's sources to search: search_knowledge is offered too
    const knowledge = { search: () => Promise.reject(new Error('not searched')) }
    const tools = new BuiltinTools({ workspace: () => '/nonexistent', knowledge }).tools()
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES])
    // without: it is not
    expect(
      new BuiltinTools({ workspace: () => '/nonexistent' }).tools().map((t) => t.name),
    ).not.toContain('search_knowledge')
    expect(BUILTIN_TOOL_NAMES).toEqual([
      'read_file',
      'list_directory',
      'search_files',
      'write_file',
      'edit_file',
      'run_command',
      'fetch_url',
      'todo_write',
      'search_knowledge',
    ])
    const ajv = new Ajv({ strict: true })
    for (const t of tools) {
      expect(t.description.length, t.name).toBeGreaterThan(40)
      expect(t.inputSchema['type'], t.name).toBe('object')
      expect(t.inputSchema['additionalProperties'], t.name).toBe(false)
      expect(() => ajv.compile(t.inputSchema), t.name).not.toThrow()
      const validate = ajv.compile(t.inputSchema)
      expect(validate({ unexpected: 1 }), `${t.name} accepts unknown properties`).toBe(false)
    }
    const byName = new Map(tools.map((t) => [t.name, t.annotations]))
    for (const ro of ['read_file', 'list_directory', 'search_files', 'search_knowledge']) {
      expect(byName.get(ro)?.readOnlyHint, ro).toBe(true)
    }
    for (const w of ['write_file', 'edit_file', 'run_command']) {
      expect(byName.get(w)?.readOnlyHint, w).toBe(false)
      expect(byName.get(w)?.destructiveHint, w).toBe(true)
    }
    expect(byName.get('run_command')?.openWorldHint).toBe(true)
    expect(byName.get('fetch_url')).toMatchObject({
      readOnlyHint: false,
      openWorldHint: true,
      destructiveHint: false,
    })
  })

  it('leaves disabled tools out of the list and refuses to call them', async () => {
    const h = harness({ disabled: ['run_command', 'fetch_url'] })
    const names = h.tools.tools().map((t) => t.name)
    expect(names).not.toContain('run_command')
    expect(names).not.toContain('fetch_url')
    expect(names).toContain('read_file')
    await expect(h.tools.call('run_command', { command: 'echo hi' }, ctx())).rejects.toThrow(
      /switched off in the settings/,
    )
  })

  it('refuses unknown tools', async () => {
    const tools = new BuiltinTools({ workspace: () => '/nonexistent' })
    await expect(tools.call('rm_rf', {}, ctx())).rejects.toThrow(/no built-in tool named "rm_rf"/)
  })

  it('turns bad argument types into error results', async () => {
    const h = harness()
    const r = await h.call('read_file', { path: 42 })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('"path" must be a string')
    const n = await h.call('read_file', { path: 'x', offset: 1.5 })
    expect(n.isError).toBe(true)
    expect(n.text).toContain('whole number')
  })

  it('keeps plain names behind the composite host and routes calls', async () => {
    const h = harness()
    h.put('hello.txt', 'hi there')
    const host = new CompositeToolHost(() => [h.tools], { builtin: h.tools })
    const listed = host.listTools()
    expect(listed.map((t) => t.name)).toContain('read_file')
    expect(listed.find((t) => t.name === 'read_file')).toMatchObject({
      server: 'cairn',
      trusted: true,
    })
    const out = await host.callTool('read_file', { path: 'hello.txt' }, ctx())
    expect(out.content).toEqual([{ type: 'text', text: 'hi there' }])
  })
})
