/** Reading Claude Desktop's configuration: a server under the reserved name does not fail the import. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  importClaudeDesktop,
  McpConfigError,
  readMcpConfigFile,
} from '../../src-main/adapters/mcp/config'

function file(servers: Record<string, unknown>): string {
  const f = join(mkdtempSync(join(tmpdir(), 'cairn-claude-')), 'claude_desktop_config.json')
  writeFileSync(f, JSON.stringify({ mcpServers: servers }))
  return f
}

describe('importing Claude Desktop servers', () => {
  it('brings a server named cairn in under another name, disabled, with the others', () => {
    const f = file({
      Cairn: { command: 'node', args: ['a.js'] },
      'cairn-imported': { command: 'node', args: ['b.js'] },
      files: { command: 'npx', args: ['-y', 'files'] },
    })
    const servers = importClaudeDesktop(f)
    expect(Object.keys(servers).sort()).toEqual(['cairn-imported', 'cairn-imported-2', 'files'])
    expect(servers['cairn-imported-2']).toMatchObject({ args: ['a.js'], disabled: true })
    expect(servers['cairn-imported']).toMatchObject({ args: ['b.js'], disabled: true })
  })

  it('a configuration file given to a run still refuses the name, with the reason', () => {
    const f = file({ cairn: { command: 'node' } })
    expect(() => readMcpConfigFile(f)).toThrow(McpConfigError)
    expect(() => readMcpConfigFile(f)).toThrow(/name of Cairn's built-in tools/)
  })
})
