import { describe, expect, it } from 'vitest'
import { repairSettings } from '../../src-main/adapters/settings/repair'
import {
  DEFAULT_SETTINGS_LIMITS,
  LIMITS_SCHEMA,
  SETTINGS_SCHEMA,
  defaultSettings,
} from '../../src-main/adapters/settings/schema'
import { checkSettings } from '../../src-main/adapters/settings/validate'
import { DEFAULT_LIMITS } from '../../src-main/core/agent/limits'

describe('the settings schema', () => {
  it('accepts the defaults, and every default key has a schema', () => {
    expect(checkSettings(defaultSettings())).toBeNull()
    expect(Object.keys(SETTINGS_SCHEMA).sort()).toEqual(Object.keys(defaultSettings()).sort())
    expect(Object.keys(LIMITS_SCHEMA).sort()).toEqual(Object.keys(DEFAULT_SETTINGS_LIMITS).sort())
  })

  it('has the same default limits as the agent loop', () => {
    const { retryBaseDelayMs: _base, ...loopDefaults } = DEFAULT_LIMITS
    expect(DEFAULT_SETTINGS_LIMITS).toEqual(loopDefaults)
  })

  it('accepts a full, realistic configuration and unknown keys', () => {
    const s = {
      ...defaultSettings(),
      providers: [
        {
          id: 'or',
          name: 'OpenRouter',
          baseURL: 'https://openrouter.ai/api/v1',
          defaultModel: 'x/y',
          headers: { 'X-Title': 'Cairn' },
        },
      ],
      activeProviderId: 'or',
      activeModel: 'x/y',
      permissionPolicy: 'read-only',
      alwaysAllow: [{ server: 's', tool: 't', fingerprint: 'f', createdAt: 1 }],
      mcpServers: { fs: { command: 'npx', args: ['-y', 'server'] } },
      builtinTools: { disabled: ['bash'] },
      defaultWorkspace: '/tmp',
      systemPrompt: 'Hi',
      window: { x: 0, y: 0, width: 1200, height: 800 },
      somethingNew: true,
    }
    expect(checkSettings(s)).toBeNull()
  })

  it('names what is wrong', () => {
    const s = { ...defaultSettings(), providers: [{ id: 'x', name: 'X' }], window: 3 }
    const problems = checkSettings(s)
    expect(problems).toContain('providers[0]')
    expect(problems).toContain('baseURL')
    expect(problems).toContain('window')
  })

  it('repairs value by value: a bad mcpServers entry goes, the others stay', () => {
    const { settings, problems } = repairSettings({
      mcpServers: { good: { url: 'http://x' }, bad: 'nope' },
      builtinTools: { disabled: 'bash' },
    })
    expect(settings.mcpServers).toEqual({ good: { url: 'http://x' } })
    expect(settings.builtinTools).toEqual({ disabled: [] })
    expect(problems).toHaveLength(2)
    expect(problems.join('\n')).toContain('"mcpServers.bad"')
    expect(problems.join('\n')).toContain('"builtinTools.disabled"')
  })
})
