/**
 * Browser mode's access token, kept per data directory in `<dataDir>/web-token` (mode
 * 0600) so that restarting `npm run web` does not strand open tabs: the printed address
 * and the session cookie (derived from the token) stay valid until `--new-token` rotates
 * the token, which makes every earlier address and cookie invalid.
 */
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PRIVATE_DIR_MODE } from '../adapters/data-dir'
import { writeFileAtomicSync } from '../adapters/atomic-file'
import { randomSecret } from './auth'

export const TOKEN_FILE = 'web-token'
const FILE_MODE = 0o600
/** what `randomSecret` makes: 32 bytes, base64url */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

export interface WebToken {
  token: string
  /** the session cookie's value: derived from the token, so it survives a restart too */
  session: string
  /** a new token was made (first start, `--new-token`, or an unreadable file) */
  created: boolean
}

export function sessionFromToken(token: string): string {
  return createHmac('sha256', token).update('cairn browser session').digest('base64url')
}

function readToken(file: string): string | null {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8').trim()
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw e
  }
  return TOKEN_SHAPE.test(text) ? text : null
}

/**
 * The token of `dataDir` (made on first use), or a fresh one when `rotate` is set.
 * `onWarning` hears about a file that others could read (its mode is narrowed back).
 */
export function loadWebToken(
  dataDir: string,
  opts: { rotate?: boolean; onWarning?: (message: string) => void } = {},
): WebToken {
  const file = path.join(dataDir, TOKEN_FILE)
  const existing = opts.rotate ? null : readToken(file)
  if (existing) {
    if (process.platform !== 'win32') {
      const mode = fs.statSync(file).mode & 0o777
      if ((mode & 0o077) !== 0) {
        fs.chmodSync(file, FILE_MODE)
        opts.onWarning?.(
          `The browser-mode token file ${file} was readable by others (mode ${mode.toString(8)}); its mode is now 600.`,
        )
      }
    }
    return { token: existing, session: sessionFromToken(existing), created: false }
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const token = randomSecret()
  writeFileAtomicSync(file, `${token}\n`, { mode: FILE_MODE })
  return { token, session: sessionFromToken(token), created: true }
}
