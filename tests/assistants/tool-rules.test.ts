/**
 * The assistant's tool rules (which tool of which set may be offered) and the CLI's
 * `--tools` syntax for them.
 */
import { describe, expect, it } from 'vitest'
import type { AssistantTools } from '../../src-preload/contract/assistants'
import { allowsAnyServerTool, allowsTool } from '../../src-main/core/tools/assistant-filter'
import { parseToolsSpec, toolsSpec } from '../../src-main/cli/assistant-flags'
import { UsageError } from '../../src-main/cli/args'

const rules: AssistantTools = {
  builtin: { mode: 'some', names: ['read_file'] },
  mcp: {
    servers: { git: { mode: 'all', names: [] }, web: { mode: 'some', names: ['search'] } },
    others: 'none',
  },
}

describe('tool rules', () => {
  it('allows exactly what each set says; servers not listed follow the rule for others', () => {
    expect(allowsTool(rules, null, 'read_file')).toBe(true)
    expect(allowsTool(rules, null, 'run_command')).toBe(false)
    expect(allowsTool(rules, 'git', 'anything')).toBe(true)
    expect(allowsTool(rules, 'web', 'search')).toBe(true)
    expect(allowsTool(rules, 'web', 'fetch')).toBe(false)
    expect(allowsTool(rules, 'other', 'x')).toBe(false)
    expect(allowsTool({ ...rules, mcp: { ...rules.mcp, others: 'all' } }, 'other', 'x')).toBe(true)
    // a server named like an object's own property is just a name
    expect(allowsTool(rules, '__proto__', 'x')).toBe(false)
    expect(allowsTool(rules, 'constructor', 'x')).toBe(false)
  })

  it('knows when no server tool can be offered (no server needs waiting for)', () => {
    expect(allowsAnyServerTool(rules)).toBe(true)
    const none: AssistantTools = {
      builtin: { mode: 'all', names: [] },
      mcp: {
        servers: { git: { mode: 'some', names: [] }, web: { mode: 'none', names: ['x'] } },
        others: 'none',
      },
    }
    expect(allowsAnyServerTool(none)).toBe(false)
  })
})

describe('--tools', () => {
  it('reads all, none, built-in names, builtin:*, server:tool, server:* and mcp:*', () => {
    expect(parseToolsSpec('all')).toEqual({
      builtin: { mode: 'all', names: [] },
      mcp: { servers: {}, others: 'all' },
    })
    expect(parseToolsSpec('none')).toEqual({
      builtin: { mode: 'none', names: [] },
      mcp: { servers: {}, others: 'none' },
    })
    expect(parseToolsSpec(' read_file, builtin:fetch_url ,git:*,web:search,web:fetch')).toEqual({
      builtin: { mode: 'some', names: ['read_file', 'fetch_url'] },
      mcp: {
        servers: {
          git: { mode: 'all', names: [] },
          web: { mode: 'some', names: ['search', 'fetch'] },
        },
        others: 'none',
      },
    })
    expect(parseToolsSpec('builtin:*,mcp:*')).toMatchObject({
      builtin: { mode: 'all' },
      mcp: { others: 'all' },
    })
  })

  it('writes rules back in the same syntax', () => {
    for (const spec of ['all', 'none', 'read_file,git:*,web:search', 'builtin:*,web:search,mcp:*'])
      expect(toolsSpec(parseToolsSpec(spec))).toBe(spec)
    // every built-in tool and every server's is all there is
    expect(toolsSpec(parseToolsSpec('builtin:*,mcp:*'))).toBe('all')
  })

  it('refuses what it cannot read', () => {
    expect(() => parseToolsSpec('')).toThrow(UsageError)
    expect(() => parseToolsSpec('all,read_file')).toThrow(/cannot be combined/)
    expect(() => parseToolsSpec('git:')).toThrow(/not <server>:<tool>/)
  })
})
