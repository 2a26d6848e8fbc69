import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import { useTempDirs } from './temp-dirs'

const tempDir = useTempDirs()
const mode = (p: string): number => fs.statSync(p).mode & 0o777
const posix = process.platform !== 'win32'

describe('openSecrets', () => {
  it.runIf(posix)('creates secrets.json with mode 0600', () => {
    const dir = tempDir()
    const secrets = openSecrets(dir)
    expect(secrets.path).toBe(path.join(dir, 'secrets.json'))
    expect(mode(secrets.path)).toBe(0o600)
    secrets.setApiKey('openai', 'sk-one')
    expect(mode(secrets.path)).toBe(0o600)
  })

  it('stores keys apart from the settings, for every instance', () => {
    const dir = tempDir()
    const a = openSecrets(dir)
    const b = openSecrets(dir)
    a.setApiKey('openai', 'sk-one')
    a.setApiKey('groq', 'gsk-two')
    expect(b.getApiKey('openai')).toBe('sk-one')
    expect(b.allKeys().sort()).toEqual(['gsk-two', 'sk-one'])
    b.setApiKey('openai', null)
    expect(a.getApiKey('openai')).toBeUndefined()
    expect(a.getApiKey('groq')).toBe('gsk-two')
    expect(fs.existsSync(path.join(dir, 'settings.json'))).toBe(false)
  })

  it('writes atomically: a new file is renamed into place, no temp file is left', () => {
    const dir = tempDir()
    const secrets = openSecrets(dir)
    secrets.setApiKey('a', 'key-a')
    const before = fs.statSync(secrets.path).ino
    secrets.setApiKey('b', 'key-b')
    expect(fs.statSync(secrets.path).ino).not.toBe(before)
    expect(fs.readdirSync(dir)).toEqual(['secrets.json'])
    expect(JSON.parse(fs.readFileSync(secrets.path, 'utf8'))).toEqual({
      apiKeys: { a: 'key-a', b: 'key-b' },
    })
  })

  it.runIf(posix)('narrows a widened mode back to 0600, with a warning', () => {
    const dir = tempDir()
    openSecrets(dir).setApiKey('a', 'key-a')
    const file = path.join(dir, 'secrets.json')
    fs.chmodSync(file, 0o644)
    const warnings: string[] = []
    const secrets = openSecrets(dir, { onWarning: (m) => warnings.push(m) })
    expect(mode(file)).toBe(0o600)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('644')
    fs.chmodSync(file, 0o666)
    expect(secrets.getApiKey('a')).toBe('key-a')
    expect(mode(file)).toBe(0o600)
    expect(secrets.warnings).toHaveLength(2)
  })

  it('passes values through the codec (the seam for safeStorage)', () => {
    const dir = tempDir()
    const codec = {
      encrypt: (s: string) => Buffer.from(s).toString('base64'),
      decrypt: (s: string) => Buffer.from(s, 'base64').toString(),
    }
    const secrets = openSecrets(dir, { codec })
    secrets.setApiKey('a', 'sk-secret')
    expect(fs.readFileSync(secrets.path, 'utf8')).not.toContain('sk-secret')
    expect(secrets.getApiKey('a')).toBe('sk-secret')
    expect(secrets.allKeys()).toEqual(['sk-secret'])
    expect(openSecrets(dir).getApiKey('a')).toBe(codec.encrypt('sk-secret'))
  })

  it('copies a broken file aside and starts empty, with a warning', () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'secrets.json'), '{"apiKeys": {"a": ', { mode: 0o600 })
    const secrets = openSecrets(dir)
    expect(secrets.getApiKey('a')).toBeUndefined()
    const copies = fs.readdirSync(dir).filter((f) => f.startsWith('secrets.json.broken-'))
    expect(copies).toHaveLength(1)
    expect(secrets.warnings[0]).toContain(copies[0])
    if (posix) expect(mode(path.join(dir, copies[0] ?? ''))).toBe(0o600)
  })

  it('a file of the wrong shape is broken too; what a newer version adds beside the keys is kept', () => {
    const dir = tempDir()
    const file = path.join(dir, 'secrets.json')
    fs.writeFileSync(file, JSON.stringify({ apiKeys: { a: 42 } }), { mode: 0o600 })
    expect(openSecrets(dir).getApiKey('a')).toBeUndefined()
    expect(fs.readdirSync(dir).some((f) => f.startsWith('secrets.json.broken-'))).toBe(true)

    const later = tempDir()
    const laterFile = path.join(later, 'secrets.json')
    fs.writeFileSync(laterFile, JSON.stringify({ apiKeys: {}, futureThing: { x: 1 } }), {
      mode: 0o600,
    })
    const secrets = openSecrets(later)
    secrets.setApiKey('p', 'sk-1')
    expect(JSON.parse(fs.readFileSync(laterFile, 'utf8'))).toMatchObject({ futureThing: { x: 1 } })
    expect(openSecrets(later).getApiKey('p')).toBe('sk-1')
  })
})

describe('keys the desktop app encrypted', () => {
  it('are not sent as keys by the CLI or browser mode: a warning says what to do', () => {
    const dir = tempDir()
    const writer = openSecrets(dir, {
      codec: { encrypt: (s) => `safe:${Buffer.from(s).toString('base64')}`, decrypt: (s) => s },
    })
    writer.setApiKey('p1', 'sk-desktop-key-123456')
    const warnings: string[] = []
    const reader = openSecrets(dir, { onWarning: (w) => warnings.push(w) })
    expect(reader.getApiKey('p1')).toBeUndefined()
    expect(reader.allKeys()).toEqual([])
    expect(warnings.join('\n')).toMatch(/only the desktop app can read; set CAIRN_API_KEY/)
  })
})
