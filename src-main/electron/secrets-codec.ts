/**
 * API keys encrypted with the operating system's secret store (Keychain, DPAPI, libsecret
 * or KWallet) through Electron's safeStorage. Stored as `safe:<base64>`; a value without
 * the prefix is a plain key written before (or by a host without safeStorage) and is
 * read as it is.
 */
import type { SafeStorage } from 'electron'
import type { SecretCodec } from '../adapters/settings/secrets'

export const SAFE_PREFIX = 'safe:'

export const WEAK_KEY_WARNING =
  'API keys are stored with a weak key: install a keyring (gnome-keyring / kwallet) so that Cairn can encrypt them properly.'
export const NO_ENCRYPTION_WARNING =
  'Encryption is not available on this system: API keys are stored unencrypted in secrets.json (readable only by you).'

type Storage = Pick<
  SafeStorage,
  'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
>

/** Call after the app is ready (safeStorage is not available before on Linux). */
export function safeStorageCodec(
  storage: Storage,
  warn: (message: string) => void,
  platform: NodeJS.Platform = process.platform,
): SecretCodec {
  const available = storage.isEncryptionAvailable()
  if (!available) warn(NO_ENCRYPTION_WARNING)
  else if (platform === 'linux' && storage.getSelectedStorageBackend() === 'basic_text') {
    warn(WEAK_KEY_WARNING)
  }
  return {
    encrypt(plain) {
      if (!available) return plain
      return SAFE_PREFIX + storage.encryptString(plain).toString('base64')
    },
    decrypt(stored) {
      if (!stored.startsWith(SAFE_PREFIX)) return stored
      if (!storage.isEncryptionAvailable()) {
        throw new Error('it was encrypted with the system keyring, which is not available now')
      }
      return storage.decryptString(Buffer.from(stored.slice(SAFE_PREFIX.length), 'base64'))
    },
  }
}
