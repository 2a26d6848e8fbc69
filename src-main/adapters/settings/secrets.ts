/**
 * API keys, apart from the settings: `<dataDir>/secrets.json`, mode 0600, written
 * atomically under the same kind of cross-process lock as the settings. Values pass
 * through a codec (identity here; the desktop app plugs in Electron's safeStorage).
 *
 * File: `{ "apiKeys": { "<providerId>": "<encoded key>" }, "mcpAuth": { "<server URL>": "<encoded JSON>" } }`
 * (other keys are kept). `mcpAuth` holds a remote MCP server's OAuth tokens and client;
 * `mcpValues` an installed extension's sensitive settings (`{ "<server>": "<encoded JSON>" }`).
 */
import fs from 'node:fs'
import { dataPaths, PRIVATE_DIR_MODE } from '../data-dir'
import { copyAside, writeFileAtomicSync } from '../atomic-file'
import { withFileLockSync, type FileLockOptions } from './file-lock'
import { z } from 'zod'
import type { SecretsStore } from '../../core/service-ports'

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

export interface SecretCodec {
  encrypt(plain: string): string
  decrypt(stored: string): string
}

/** The credential strings inside an MCP server's stored OAuth state (for redaction). */
function credentialsIn(json: string): string[] {
  const out: string[] = []
  const visit = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (/token|secret/i.test(key) && !/type|expires|method/i.test(key)) out.push(v)
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(x, k)
    }
  }
  try {
    visit(JSON.parse(json), '')
  } catch {
    // not JSON: nothing to find
  }
  return out
}

export interface OpenSecretsOptions {
  codec?: SecretCodec
  onWarning?: (message: string) => void
  lock?: FileLockOptions
}

/**
 * Plain storage (the file is readable only by the user). A key the desktop app saved is
 * encrypted with the OS keychain (`safe:` prefix): only the desktop app can read it.
 */
const identity: SecretCodec = {
  encrypt: (s) => s,
  decrypt: (s) => {
    if (s.startsWith('safe:')) {
      throw new Error(
        'the desktop app stored it encrypted with the system keychain, which only the desktop app can read; set CAIRN_API_KEY, or save the key again here',
      )
    }
    return s
  },
}
const FILE_MODE = 0o600
const checksMode = process.platform !== 'win32'

/**
 * The file: API keys by provider id, MCP logins by server URL (each an encoded string), and
 * whatever a newer version keeps beside them (kept as it is).
 */
const secretsFileSchema = z.looseObject({
  apiKeys: z.record(z.string(), z.string()).default({}),
  mcpAuth: z.record(z.string(), z.string()).optional(),
  mcpValues: z.record(z.string(), z.string()).optional(),
})
type SecretsFile = z.infer<typeof secretsFileSchema>

class FileSecretsStore implements SecretsStore {
  readonly path: string
  readonly warnings: string[] = []
  private readonly lockPath: string
  private readonly codec: SecretCodec

  constructor(
    dataDir: string,
    private readonly opts: OpenSecretsOptions,
  ) {
    this.path = dataPaths(dataDir).secrets
    this.lockPath = `${this.path}.lock`
    this.codec = opts.codec ?? identity
    fs.mkdirSync(dataPaths(dataDir).root, { recursive: true, mode: PRIVATE_DIR_MODE })
    this.locked(() => {
      if (!fs.existsSync(this.path)) this.write({ apiKeys: {} })
      else this.read()
    })
  }

  getApiKey(providerId: string): string | undefined {
    const stored = this.readShared().apiKeys[providerId]
    return stored === undefined ? undefined : this.decode(providerId, stored)
  }

  setApiKey(providerId: string, key: string | null): void {
    if (typeof providerId !== 'string' || providerId === '') {
      throw new Error('setApiKey needs a provider id')
    }
    this.locked(() => {
      const file = this.read()
      if (key === null || key === '') delete file.apiKeys[providerId]
      else file.apiKeys[providerId] = this.codec.encrypt(key)
      this.write(file)
    })
  }

  allKeys(): string[] {
    const { apiKeys, mcpAuth, mcpValues } = this.readShared()
    const keys = Object.entries(apiKeys)
      .map(([id, stored]) => this.decode(id, stored))
      .filter((k): k is string => typeof k === 'string' && k.length > 0)
    for (const [url, stored] of Object.entries(mcpAuth ?? {})) {
      const json = this.decode(url, stored, 'login of the MCP server at')
      if (json) keys.push(...credentialsIn(json))
    }
    for (const server of Object.keys(mcpValues ?? {}))
      keys.push(...Object.values(this.getMcpValues(server) ?? {}).filter((v) => v.length > 0))
    return keys
  }

  getMcpAuth(serverUrl: string): string | undefined {
    const stored = this.readShared().mcpAuth?.[serverUrl]
    return stored === undefined
      ? undefined
      : this.decode(serverUrl, stored, 'login of the MCP server at')
  }

  setMcpAuth(serverUrl: string, json: string | null): void {
    this.locked(() => {
      const file = this.read()
      const all = { ...(file.mcpAuth ?? {}) }
      if (json === null) delete all[serverUrl]
      else all[serverUrl] = this.codec.encrypt(json)
      this.write({ ...file, mcpAuth: all })
    })
  }

  getMcpValues(server: string): Record<string, string> | undefined {
    const stored = this.readShared().mcpValues?.[server]
    const json =
      stored === undefined ? undefined : this.decode(server, stored, 'settings of the extension')
    if (json === undefined) return undefined
    const r = z.record(z.string(), z.string()).safeParse(safeJson(json))
    return r.success ? r.data : undefined
  }

  setMcpValues(server: string, values: Record<string, string> | null): void {
    this.locked(() => {
      const file = this.read()
      const all = { ...(file.mcpValues ?? {}) }
      if (values === null || Object.keys(values).length === 0) delete all[server]
      else all[server] = this.codec.encrypt(JSON.stringify(values))
      this.write({ ...file, mcpValues: all })
    })
  }

  private decode(
    providerId: string,
    stored: string,
    what = 'API key of provider',
  ): string | undefined {
    try {
      return this.codec.decrypt(stored)
    } catch (e) {
      const message = `The ${what} "${providerId}" could not be decrypted: ${(e as Error).message}`
      if (!this.warnings.includes(message)) this.warn(message)
      return undefined
    }
  }

  private locked<T>(fn: () => T): T {
    return withFileLockSync(this.lockPath, fn, this.opts.lock)
  }

  private warn(message: string): void {
    this.warnings.push(message)
    this.opts.onWarning?.(message)
  }

  /** Reads without the lock (writes are atomic); repairs under the lock when needed. */
  private readShared(): SecretsFile {
    return this.parse(this.readText()) ?? this.locked(() => this.read())
  }

  /** Inside the lock: reads the file; a broken one is copied aside and started afresh. */
  private read(): SecretsFile {
    const text = this.readText()
    const parsed = this.parse(text)
    if (parsed) return parsed
    const copy = copyAside(this.path, 'broken', FILE_MODE)
    this.warn(
      `The secrets file ${this.path} could not be read; it was copied to ${copy} and no API keys are stored now.`,
    )
    const fresh: SecretsFile = { apiKeys: {} }
    this.write(fresh)
    return fresh
  }

  private readText(): string | null {
    try {
      this.ensureMode()
      return fs.readFileSync(this.path, 'utf8')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw e
    }
  }

  /** null when the text is not a secrets file (a missing file is an empty one) */
  private parse(text: string | null): SecretsFile | null {
    if (text === null) return { apiKeys: {} }
    let v: unknown
    try {
      v = JSON.parse(text)
    } catch {
      return null
    }
    const r = secretsFileSchema.safeParse(v)
    return r.success ? r.data : null
  }

  /** Keeps the file private to its owner: a widened mode is narrowed back, with a warning. */
  private ensureMode(): void {
    if (!checksMode) return
    const mode = fs.statSync(this.path).mode & 0o777
    if ((mode & 0o077) === 0) return
    fs.chmodSync(this.path, FILE_MODE)
    this.warn(
      `The secrets file ${this.path} was readable by others (mode ${mode.toString(8)}); its mode is now 600.`,
    )
  }

  private write(file: SecretsFile): void {
    writeFileAtomicSync(this.path, `${JSON.stringify(file, null, 2)}\n`, { mode: FILE_MODE })
  }
}

/** Opens (creating, mode 0600) `<dataDir>/secrets.json`. */
export function openSecrets(dataDir: string, opts: OpenSecretsOptions = {}): SecretsStore {
  return new FileSecretsStore(dataDir, opts)
}
