import { describe, expect, it } from 'vitest'
import { repairSettings } from '../../src-main/adapters/settings/repair'
import {
  DEFAULT_SETTINGS_LIMITS,
  SETTINGS_FIELDS,
  defaultSettings,
} from '../../src-main/adapters/settings/schema'
import { checkSettings, checkValue } from '../../src-main/adapters/settings/validate'
import { routeInputs } from '../../src-preload/contract/routes'
import { limitsSchema, providerSchema } from '../../src-preload/contract/settings-schema'
import { DEFAULT_LIMITS } from '../../src-main/core/agent/limits'

describe('the settings schema', () => {
  it('accepts the defaults, and every default key has a schema', () => {
    expect(checkSettings(defaultSettings())).toBeNull()
    expect(Object.keys(SETTINGS_FIELDS).sort()).toEqual(Object.keys(defaultSettings()).sort())
    expect(Object.keys(limitsSchema.shape).sort()).toEqual(
      Object.keys(DEFAULT_SETTINGS_LIMITS).sort(),
    )
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

  it('says what is wrong in plain words, with the path and the bound', () => {
    const limits = { ...defaultSettings().limits, maxIterations: 0, maxRetries: 21 }
    expect(checkValue(limitsSchema, limits, 'limits')).toBe(
      'limits.maxIterations must be >= 1; limits.maxRetries must be <= 20',
    )
    expect(checkValue(limitsSchema, { ...limits, maxIterations: 'lots' }, 'limits')).toContain(
      'limits.maxIterations must be a number',
    )
    expect(checkSettings({ ...defaultSettings(), permissionPolicy: 'yolo' })).toBe(
      'permissionPolicy must be one of "ask", "allow-all", "deny-all", "read-only"',
    )
    const { limits: _gone, ...noLimits } = defaultSettings()
    expect(checkSettings(noLimits)).toBe('limits is required')
    expect(checkValue(providerSchema, { id: 'x', name: 'X', keepAlive: 'soon' }, 'p')).toBe(
      'p.baseURL is required; p.keepAlive must be a number of seconds or a duration such as 30s, 5m, 1h',
    )
  })

  it('gives settings.update the same bounds as the file', () => {
    const update = routeInputs['settings.update']
    for (const [value, ok] of [
      [{ limits: { maxIterations: 1 } }, true],
      [{ limits: { maxIterations: 0 } }, false],
      [{ limits: { compactAtPercent: 96 } }, false],
      [{ logRetentionDays: 3651 }, false],
      [{ permissionPolicy: 'read-only' }, true],
      [{ permissionPolicy: 'yolo' }, false],
      [{ providers: [{ id: 'a', name: 'A', baseURL: 'http://h', keepAlive: '5m' }] }, true],
      [{ providers: [{ id: 'a', name: 'A', baseURL: 'http://h', keepAlive: '5 min' }] }, false],
      // the saved form is stricter than the file: a URL, and no unknown fields
      [{ providers: [{ id: 'a', name: 'A', baseURL: 'localhost' }] }, false],
      [{ providers: [{ id: 'a', name: 'A', baseURL: 'http://h', extra: 1 }] }, false],
      [{ limits: { extra: 1 } }, false],
    ] as const) {
      expect(update.safeParse(value).success, JSON.stringify(value)).toBe(ok)
    }
  })
})
