import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SafeStorage } from 'electron'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import {
  NO_ENCRYPTION_WARNING,
  SAFE_PREFIX,
  WEAK_KEY_WARNING,
  safeStorageCodec,
} from '../../src-main/electron/secrets-codec'
import { resetElectron, safeStorage as mock } from './electron-mock'

const storage = mock as unknown as SafeStorage

beforeEach(() => resetElectron())

describe('the safeStorage codec', () => {
  it('round-trips a key through safeStorage, stored as safe:<base64>', () => {
    const warn = vi.fn()
    const codec = safeStorageCodec(storage, warn, 'linux')
    const stored = codec.encrypt('sk-secret-123')
    expect(stored.startsWith(SAFE_PREFIX)).toBe(true)
    expect(stored).not.toContain('sk-secret-123')
    const sealed = Buffer.from(stored.slice(SAFE_PREFIX.length), 'base64')
    expect(mock.encryptString).toHaveBeenCalledWith('sk-secret-123')
    expect(sealed).toEqual(mock.encryptString.mock.results[0]!.value)
    expect(codec.decrypt(stored)).toBe('sk-secret-123')
    expect(warn).not.toHaveBeenCalled()
  })

  it('reads a plain (legacy) key as it is', () => {
    const codec = safeStorageCodec(storage, vi.fn(), 'linux')
    expect(codec.decrypt('sk-plain')).toBe('sk-plain')
    expect(mock.decryptString).not.toHaveBeenCalled()
  })

  it('warns on Linux when the keyring is missing (basic_text)', () => {
    mock.backend = 'basic_text'
    const warn = vi.fn()
    safeStorageCodec(storage, warn, 'linux')
    expect(warn).toHaveBeenCalledWith(WEAK_KEY_WARNING)
    expect(WEAK_KEY_WARNING).toContain('install a keyring (gnome-keyring / kwallet)')
    const mac = vi.fn()
    safeStorageCodec(storage, mac, 'darwin')
    expect(mac).not.toHaveBeenCalled()
  })

  it('stores plain keys, with a warning, when encryption is not available', () => {
    mock.available = false
    const warn = vi.fn()
    const codec = safeStorageCodec(storage, warn, 'linux')
    expect(warn).toHaveBeenCalledWith(NO_ENCRYPTION_WARNING)
    expect(codec.encrypt('sk-1')).toBe('sk-1')
    expect(() => codec.decrypt(`${SAFE_PREFIX}AAAA`)).toThrow(/keyring/)
  })

  it('keeps keys encrypted in secrets.json and readable through the store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-codec-'))
    const secrets = openSecrets(dir, { codec: safeStorageCodec(storage, vi.fn(), 'linux') })
    secrets.setApiKey('openai', 'sk-live-abc')
    const file = readFileSync(secrets.path, 'utf8')
    expect(file).not.toContain('sk-live-abc')
    expect(file).toContain(SAFE_PREFIX)
    expect(secrets.getApiKey('openai')).toBe('sk-live-abc')
    expect(secrets.allKeys()).toEqual(['sk-live-abc'])
  })

  it('a value that does not decrypt becomes a warning of the store, not a crash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-codec-'))
    const onWarning = vi.fn()
    const codec = safeStorageCodec(storage, vi.fn(), 'linux')
    const secrets = openSecrets(dir, { codec, onWarning })
    secrets.setApiKey('p', 'k')
    const broken = openSecrets(dir, {
      codec: { encrypt: codec.encrypt, decrypt: () => codec.decrypt(`${SAFE_PREFIX}bm9wZQ==`) },
      onWarning,
    })
    expect(broken.getApiKey('p')).toBeUndefined()
    expect(onWarning).toHaveBeenCalledWith(expect.stringContaining('could not be decrypted'))
  })
})
