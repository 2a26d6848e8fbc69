import { describe, expect, it } from 'vitest'
import type { ToolDescriptor } from '../../src-main/core/ports'
import { SettingsPermissionRules } from '../../src-main/adapters/settings/rules'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import { useTempDirs } from './temp-dirs'

const tempDir = useTempDirs()

function tool(over: Partial<ToolDescriptor> = {}): ToolDescriptor {
  return {
    name: 'fs_write',
    server: 'fs',
    tool: 'write',
    description: 'Writes a file.',
    inputSchema: { type: 'object' },
    annotations: {},
    trusted: false,
    fingerprint: 'fp-1',
    ...over,
  }
}

describe('SettingsPermissionRules', () => {
  it('allows a remembered tool while its fingerprint is unchanged', async () => {
    const dir = tempDir()
    const rules = new SettingsPermissionRules(openSettings(dir), () => 1234)
    expect(rules.isAlwaysAllowed(tool())).toBe(false)
    rules.rememberAlwaysAllow(tool())
    // holds at once, before the file is written
    expect(rules.isAlwaysAllowed(tool())).toBe(true)
    await rules.flushed()
    // persisted: another process (another store) sees it
    const other = new SettingsPermissionRules(openSettings(dir))
    expect(other.isAlwaysAllowed(tool())).toBe(true)
    expect(openSettings(dir).get().alwaysAllow).toEqual([
      { server: 'fs', tool: 'write', fingerprint: 'fp-1', createdAt: 1234 },
    ])
  })

  it('asks again when the fingerprint, the server or the tool differ', async () => {
    const rules = new SettingsPermissionRules(openSettings(tempDir()))
    rules.rememberAlwaysAllow(tool())
    expect(rules.isAlwaysAllowed(tool({ fingerprint: 'fp-2' }))).toBe(false)
    await rules.flushed()
    expect(rules.isAlwaysAllowed(tool({ fingerprint: 'fp-2' }))).toBe(false)
    expect(rules.isAlwaysAllowed(tool({ server: 'other' }))).toBe(false)
    expect(rules.isAlwaysAllowed(tool({ tool: 'read' }))).toBe(false)
  })

  it('replaces the rule of the same server and tool', async () => {
    const settings = openSettings(tempDir())
    const rules = new SettingsPermissionRules(settings)
    rules.rememberAlwaysAllow(tool())
    rules.rememberAlwaysAllow(tool({ tool: 'read', fingerprint: 'r' }))
    rules.rememberAlwaysAllow(tool({ fingerprint: 'fp-2' }))
    expect(rules.isAlwaysAllowed(tool({ fingerprint: 'fp-2' }))).toBe(true)
    expect(rules.isAlwaysAllowed(tool())).toBe(false)
    await rules.flushed()
    expect(rules.isAlwaysAllowed(tool({ fingerprint: 'fp-2' }))).toBe(true)
    expect(rules.isAlwaysAllowed(tool())).toBe(false)
    expect(settings.get().alwaysAllow.map((r) => `${r.tool}:${r.fingerprint}`)).toEqual([
      'read:r',
      'write:fp-2',
    ])
  })
})
