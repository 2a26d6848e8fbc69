/**
 * The settings routes the settings screen uses, through the real router, handlers and
 * settings store (another store on the same data directory plays a second process).
 */
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolDescriptor } from '../../src-main/core/ports'
import { SettingsPermissionRules } from '../../src-main/adapters/settings/rules'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import { unwrap, type TestBridge } from '../support/bridges'
import { openTestHost } from '../support/host'

function tool(server: string, name: string, fingerprint: string): ToolDescriptor {
  return {
    name: `${server}__${name}`,
    server,
    tool: name,
    description: '',
    inputSchema: { type: 'object' },
    annotations: {},
    trusted: false,
    fingerprint,
  }
}

describe('settings routes for the settings screen', () => {
  let dir: string
  let b: TestBridge
  let stop: () => Promise<void>

  beforeEach(async () => {
    ;({ dir, b, stop } = await openTestHost({ prefix: 'cairn-settings-routes-' }))
  })
  afterEach(() => stop())

  it('revokes one always-allow rule and keeps the others', async () => {
    const rules = new SettingsPermissionRules(openSettings(join(dir, 'data')), () => 42)
    rules.rememberAlwaysAllow(tool('everything', 'echo', 'fp-1'))
    rules.rememberAlwaysAllow(tool('cairn', 'read_file', 'fp-2'))
    await rules.flushed()
    expect(unwrap(await b.request('settings.get', {})).alwaysAllow).toHaveLength(2)

    // a stale fingerprint revokes nothing
    const same = unwrap(
      await b.request('settings.update', {
        revokeAlwaysAllow: { server: 'everything', tool: 'echo', fingerprint: 'old' },
      }),
    )
    expect(same.alwaysAllow).toHaveLength(2)

    const view = unwrap(
      await b.request('settings.update', {
        revokeAlwaysAllow: { server: 'everything', tool: 'echo', fingerprint: 'fp-1' },
      }),
    )
    expect(view.alwaysAllow).toEqual([
      { server: 'cairn', tool: 'read_file', fingerprint: 'fp-2', createdAt: 42 },
    ])
    // stored, not only answered: the rule no longer allows the tool
    expect(rules.isAlwaysAllowed(tool('everything', 'echo', 'fp-1'))).toBe(false)
    expect(rules.isAlwaysAllowed(tool('cairn', 'read_file', 'fp-2'))).toBe(true)
  })

  it('lists the built-in tools with their read-only hint and the default workspace', async () => {
    const r = unwrap(await b.request('tools.builtins', {}))
    const names = r.tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['read_file', 'write_file', 'run_command']))
    expect(r.tools.find((t) => t.name === 'read_file')).toMatchObject({ readOnly: true })
    expect(r.tools.find((t) => t.name === 'write_file')).toMatchObject({ readOnly: false })
    for (const t of r.tools) expect(t.description.length).toBeGreaterThan(0)
    expect(r.defaultWorkspace).toMatch(/Cairn$/)
  })

  it('refuses a relative workspace folder and saves nothing of that update', async () => {
    const bad = await b.request('settings.update', {
      defaultWorkspace: 'projects/notes',
      permissionPolicy: 'deny-all',
    })
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    if (!bad.ok) expect(bad.error.message).toContain('absolute path')
    const view = unwrap(await b.request('settings.get', {}))
    expect(view.defaultWorkspace).toBeNull()
    expect(view.permissionPolicy).toBe('ask')
    const abs = join(dir, 'work')
    expect(
      unwrap(await b.request('settings.update', { defaultWorkspace: abs })).defaultWorkspace,
    ).toBe(abs)
  })

  it('saves a provider, its key and the default in one update, never sending the key back', async () => {
    const view = unwrap(
      await b.request('settings.update', {
        providers: [{ id: 'ollama', name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' }],
        activeProviderId: 'ollama',
        activeModel: 'qwen3',
        apiKeys: { ollama: 'secret-key-1234567890' },
      }),
    )
    expect(view.activeProviderId).toBe('ollama')
    expect(view.providers[0]!.apiKey).toBe('sec…7890')
    const removed = unwrap(await b.request('settings.update', { apiKeys: { ollama: null } }))
    expect(removed.providers[0]!.apiKey).toBeNull()
  })
})
