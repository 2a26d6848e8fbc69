import fs from 'node:fs'
import path from 'node:path'
import Conf from 'conf'
import { describe, expect, it } from 'vitest'
import {
  openSettings,
  settingsConfOptions,
  SettingsValidationError,
} from '../../src-main/adapters/settings/settings-store'
import { defaultSettings, type Settings } from '../../src-main/adapters/settings/schema'
import { useTempDirs } from './temp-dirs'

const tempDir = useTempDirs()

const readFile = (p: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(p, 'utf8')) as Record<string, unknown>

const provider = { id: 'local', name: 'Local', baseURL: 'http://127.0.0.1:11434/v1' }

describe('openSettings', () => {
  it('creates settings.json with the defaults on first run', () => {
    const dir = path.join(tempDir(), 'nested', 'data')
    const store = openSettings(dir)
    expect(store.path).toBe(path.join(dir, 'settings.json'))
    expect(fs.existsSync(store.path)).toBe(true)
    expect(readFile(store.path)).toEqual(defaultSettings())
    expect(store.get()).toEqual(defaultSettings())
    expect(store.get().limits.maxIterations).toBe(50)
    expect(store.get().permissionPolicy).toBe('ask')
    expect(store.warnings).toEqual([])
  })

  it('persists updates, which another instance sees at once (and vice versa)', async () => {
    const dir = tempDir()
    const a = openSettings(dir)
    const b = openSettings(dir)
    expect(b.get().activeModel).toBeNull()
    const saved = await a.update((s) => {
      s.providers.push(provider)
      s.activeProviderId = 'local'
      s.activeModel = 'qwen3'
      s.limits.maxIterations = 7
    })
    expect(saved.activeModel).toBe('qwen3')
    expect(b.get()).toMatchObject({ activeProviderId: 'local', activeModel: 'qwen3' })
    expect(b.get().limits.maxIterations).toBe(7)
    expect(b.get().providers).toEqual([provider])
    await b.update((s) => ({ ...s, systemPrompt: 'Be brief.' }))
    expect(a.get().systemPrompt).toBe('Be brief.')
    expect(readFile(a.path)['systemPrompt']).toBe('Be brief.')
  })

  it('hands out copies: mutating what get() returned changes nothing', () => {
    const store = openSettings(tempDir())
    store.get().alwaysAllow.push({ server: 's', tool: 't', fingerprint: 'f', createdAt: 1 })
    expect(store.get().alwaysAllow).toEqual([])
  })

  it('copies a file that is not valid JSON aside, intact, and starts from the defaults', () => {
    const dir = tempDir()
    const broken = '{"activeModel": "kept?", oops'
    fs.writeFileSync(path.join(dir, 'settings.json'), broken)
    const warnings: string[] = []
    const store = openSettings(dir, { onWarning: (m) => warnings.push(m) })
    const copies = fs.readdirSync(dir).filter((f) => f.startsWith('settings.json.broken-'))
    expect(copies).toHaveLength(1)
    const copy = path.join(dir, copies[0] ?? '')
    expect(fs.readFileSync(copy, 'utf8')).toBe(broken)
    expect(store.get()).toEqual(defaultSettings())
    expect(readFile(store.path)).toEqual(defaultSettings())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(copy)
    expect(store.warnings).toEqual(warnings)
  })

  it('treats valid JSON that is not an object the same way', () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'settings.json'), '[1, 2]')
    const store = openSettings(dir)
    expect(store.get()).toEqual(defaultSettings())
    expect(store.warnings[0]).toMatch(/settings\.json\.broken-/)
    const copies = fs.readdirSync(dir).filter((f) => f.startsWith('settings.json.broken-'))
    expect(fs.readFileSync(path.join(dir, copies[0] ?? ''), 'utf8')).toBe('[1, 2]')
  })

  it('resets only the values that break the schema, keeping the rest and unknown keys', () => {
    const dir = tempDir()
    const file = {
      ...defaultSettings(),
      providers: [provider],
      activeModel: 'llama3',
      permissionPolicy: 'yolo',
      limits: { ...defaultSettings().limits, maxIterations: 'lots', deadlineMs: 60_000, extra: 1 },
      fromTheFuture: { a: 1 },
    }
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(file))
    const warnings: string[] = []
    const store = openSettings(dir, { onWarning: (m) => warnings.push(m) })
    const s = store.get()
    expect(s.permissionPolicy).toBe('ask')
    expect(s.limits.maxIterations).toBe(50)
    expect(s.limits.deadlineMs).toBe(60_000)
    expect(s.providers).toEqual([provider])
    expect(s.activeModel).toBe('llama3')
    const onDisk = readFile(store.path)
    expect(onDisk['fromTheFuture']).toEqual({ a: 1 })
    expect((onDisk['limits'] as Record<string, unknown>)['extra']).toBe(1)
    expect(warnings).toHaveLength(2)
    expect(warnings.find((w) => w.includes('"permissionPolicy"'))).toContain('"yolo"')
    expect(warnings.find((w) => w.includes('"limits.maxIterations"'))).toContain('"lots"')
    // the file as it was is kept beside it
    const copies = fs.readdirSync(dir).filter((f) => f.startsWith('settings.json.invalid-'))
    expect(readFile(path.join(dir, copies[0] ?? ''))['permissionPolicy']).toBe('yolo')
  })

  it('drops only the broken entries of a list', () => {
    const dir = tempDir()
    const bad = { id: 'x', name: 'No URL' }
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ providers: [provider, bad], activeModel: 'm' }),
    )
    const store = openSettings(dir)
    expect(store.get().providers).toEqual([provider])
    expect(store.get().activeModel).toBe('m')
    expect(store.warnings.join('\n')).toContain('"providers[1]"')
  })

  it('fills in missing keys and fields silently', () => {
    const dir = tempDir()
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ activeModel: 'm', limits: { maxIterations: 9 } }),
    )
    const store = openSettings(dir)
    expect(store.get()).toEqual({
      ...defaultSettings(),
      activeModel: 'm',
      limits: { ...defaultSettings().limits, maxIterations: 9 },
    })
    expect(store.warnings).toEqual([])
  })

  it('repairs a file another process broke after it was opened', async () => {
    const dir = tempDir()
    const store = openSettings(dir)
    await store.update((s) => {
      s.activeModel = 'm'
    })
    const file = readFile(store.path)
    fs.writeFileSync(store.path, JSON.stringify({ ...file, logRetentionDays: -3 }))
    expect(store.get().logRetentionDays).toBe(30)
    expect(store.get().activeModel).toBe('m')
    expect(store.warnings.join('\n')).toContain('"logRetentionDays"')
    fs.writeFileSync(store.path, '')
    expect(store.get()).toEqual(defaultSettings())
    expect(store.warnings.at(-1)).toMatch(/settings\.json\.broken-/)
  })

  it('refuses an invalid update with a clear error and leaves the file untouched', async () => {
    const store = openSettings(tempDir())
    await store.update((s) => {
      s.activeModel = 'm'
    })
    const before = fs.readFileSync(store.path, 'utf8')
    const invalid: ((s: Settings) => void)[] = [
      (s) => {
        s.limits.maxIterations = 0
      },
      (s) => {
        ;(s as { permissionPolicy: string }).permissionPolicy = 'yolo'
      },
      (s) => {
        ;(s as Partial<Settings>).providers = undefined
      },
    ]
    for (const mutate of invalid) {
      await expect(store.update(mutate)).rejects.toThrow(SettingsValidationError)
      expect(() => store.updateSync(mutate)).toThrow(SettingsValidationError)
    }
    await expect(store.update(invalid[0] ?? (() => {}))).rejects.toThrow(/limits\.maxIterations/)
    expect(fs.readFileSync(store.path, 'utf8')).toBe(before)
    expect(store.get().activeModel).toBe('m')
    expect(fs.existsSync(`${store.path}.lock`)).toBe(false)
  })

  it('writes a file that conf (and so electron-store) opens with the same options', async () => {
    const dir = tempDir()
    const store = openSettings(dir)
    await store.update((s) => {
      s.activeModel = 'shared'
      s.window = { x: 1, y: 2, width: 800, height: 600 }
    })
    const conf = new Conf<Record<string, unknown>>(
      settingsConfOptions(dir) as ConstructorParameters<typeof Conf>[0],
    )
    expect(conf.path).toBe(store.path)
    expect(conf.get('activeModel')).toBe('shared')
    expect(conf.get('limits.maxIterations')).toBe(50)
    conf.set('activeModel', 'from-conf')
    expect(store.get().activeModel).toBe('from-conf')
  })
})
