/**
 * Folders where developer tools are usually installed (Homebrew, ~/.local/bin, cargo, volta,
 * bun, pnpm, asdf/mise shims, nvm's default node...). An app started from the desktop does
 * not have them on its PATH; command lookup adds the ones that exist.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Folders where developer tools usually live, when they exist. */
export function wellKnownDirs(
  home = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string[] {
  if (platform === 'win32') {
    const appData = process.env['APPDATA']
    const candidates = [
      appData ? path.win32.join(appData, 'npm') : '',
      path.win32.join(home, '.cargo', 'bin'),
    ]
    return candidates.filter((d) => d && isDir(d))
  }
  const candidates = [
    '/opt/homebrew/bin',
    '/opt/homebrew/sbin',
    '/usr/local/bin',
    '/usr/bin',
    '/bin',
    '/usr/sbin',
    '/sbin',
    path.join(home, '.local', 'bin'),
    path.join(home, '.cargo', 'bin'),
    path.join(home, '.volta', 'bin'),
    path.join(home, '.bun', 'bin'),
    path.join(home, '.deno', 'bin'),
    path.join(home, '.npm-global', 'bin'),
    path.join(home, '.local', 'share', 'pnpm'),
    path.join(home, 'Library', 'pnpm'),
    path.join(home, '.asdf', 'shims'),
    path.join(home, '.local', 'share', 'mise', 'shims'),
    path.join(home, '.local', 'share', 'fnm', 'aliases', 'default', 'bin'),
    nvmCurrentBin(home),
  ]
  return candidates.filter((d): d is string => !!d && isDir(d))
}

export function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory()
  } catch {
    return false
  }
}

function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split('.').map(Number)
  const pb = b.replace(/^v/, '').split('.').map(Number)
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/** nvm's default node: `$NVM_DIR/alias/default` (a version prefix or an alias) → the newest match. */
export function nvmCurrentBin(home = os.homedir(), nvmDir = process.env['NVM_DIR']): string | null {
  const dir = nvmDir || path.join(home, '.nvm')
  let versions: string[]
  try {
    versions = fs
      .readdirSync(path.join(dir, 'versions', 'node'))
      .filter((v) => /^v\d+\.\d+\.\d+$/.test(v))
  } catch {
    return null
  }
  let alias = ''
  try {
    alias = fs.readFileSync(path.join(dir, 'alias', 'default'), 'utf8').trim()
  } catch {
    // no default alias: take the newest installed version
  }
  const prefix = /^v?\d/.test(alias) ? `v${alias.replace(/^v/, '')}` : ''
  const matching = versions.filter((v) => !prefix || v === prefix || v.startsWith(`${prefix}.`))
  const best = (matching.length > 0 ? matching : versions).sort(compareVersions).at(-1)
  return best ? path.join(dir, 'versions', 'node', best, 'bin') : null
}
