/**
 * Finding a stdio server's command the way the user's terminal would. An app started by
 * double-click gets a bare PATH (launchd/desktop session), so `npx`, `uvx` or a Homebrew
 * tool are not found. We ask the user's login shell for its PATH once, add the app's PATH
 * and the usual tool folders, and look the command up there. The server then gets a
 * minimal environment: that PATH and a few user variables, never the app's secrets.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isDir, wellKnownDirs } from './tool-dirs'

const START = '__CAIRN_PATH_START__'
const END = '__CAIRN_PATH_END__'
const MAX_OUTPUT = 1024 * 1024

const cache = new Map<string, Promise<string[]>>()

/** Forgets the cached login-shell PATHs (tests). */
export function resetLoginShellPathCache(): void {
  cache.clear()
}

/** The PATH entries printed between the markers (the last pair wins); absolute entries only. */
export function parseMarkedPath(output: string): string[] | null {
  const re = new RegExp(`${START}([\\s\\S]*?)${END}`, 'g')
  let found: string | null = null
  for (const m of output.matchAll(re)) found = m[1] ?? ''
  if (found === null) return null
  return found
    .trim()
    .split(':')
    .filter((d) => d !== '' && path.posix.isAbsolute(d))
}

interface ShellRun {
  dirs: string[] | null
  timedOut: boolean
}

function runShell(
  shell: string,
  flags: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ShellRun> {
  return new Promise((resolve) => {
    let out = ''
    let settled = false
    const finish = (timedOut: boolean): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ dirs: parseMarkedPath(out), timedOut })
    }
    let child: ReturnType<typeof spawn>
    try {
      child = spawn(shell, [flags, `echo ${START}"$PATH"${END}`], {
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
        windowsHide: true,
      })
    } catch {
      resolve({ dirs: null, timedOut: false })
      return
    }
    const timer = setTimeout(() => {
      // an rc file may have started something that keeps the pipe open: end the group
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
      finish(true)
    }, timeoutMs)
    child.stdout?.on('data', (d: Buffer) => {
      if (out.length < MAX_OUTPUT) out += d.toString('utf8')
      // the markers are all we need; do not wait for the shell's exit hooks
      if (out.includes(END)) finish(false)
    })
    child.on('error', () => finish(false))
    child.on('close', () => finish(false))
  })
}

/**
 * The PATH of the user's login (and interactive) shell: `$SHELL -ilc 'echo <marker>$PATH<marker>'`,
 * parsed between markers because rc files print noise. Falls back to `/bin/sh -lc` when no
 * shell is known or the shell fails quickly. Cached per shell; [] on Windows or on failure.
 */
export function loginShellPath(
  opts: { shell?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string[]> {
  if (process.platform === 'win32') return Promise.resolve([])
  const env = opts.env ?? process.env
  let shell = opts.shell ?? env['SHELL']
  if (!shell) {
    try {
      shell = os.userInfo().shell ?? undefined
    } catch {
      shell = undefined
    }
  }
  const key = shell ?? '/bin/sh'
  let pending = cache.get(key)
  if (!pending) {
    pending = lookUp(shell, env, opts.timeoutMs ?? 5000).catch(() => [])
    cache.set(key, pending)
  }
  return pending
}

async function lookUp(
  shell: string | undefined,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<string[]> {
  const started = Date.now()
  if (shell) {
    const run = await runShell(shell, '-ilc', env, timeoutMs)
    if (run.dirs) return run.dirs
    if (run.timedOut) return []
  }
  const left = timeoutMs - (Date.now() - started)
  if (left <= 0) return []
  return (await runShell('/bin/sh', '-lc', env, left)).dirs ?? []
}

/** De-duplicated: the shell's PATH, then the app's PATH, then `extras`, then well-known folders that exist. */
export function searchDirs(
  shellPath: string[],
  appPath: string | undefined,
  extras: string[] = [],
): string[] {
  const app = (appPath ?? '').split(path.delimiter)
  const all = [...shellPath, ...app, ...extras.filter(isDir), ...wellKnownDirs()]
  const seen = new Set<string>()
  const out: string[] = []
  for (const raw of all) {
    const d = raw.trim()
    if (!d || !path.isAbsolute(d)) continue
    const norm = path.normalize(d).replace(/(.)[\\/]+$/, '$1')
    if (seen.has(norm)) continue
    seen.add(norm)
    out.push(norm)
  }
  return out
}

type Resolved = { ok: true; path: string } | { ok: false; error: string }

function executable(p: string, platform: NodeJS.Platform): 'yes' | 'not-executable' | 'missing' {
  try {
    if (!fs.statSync(p).isFile()) return 'missing'
  } catch {
    return 'missing'
  }
  if (platform === 'win32') return 'yes'
  try {
    fs.accessSync(p, fs.constants.X_OK)
    return 'yes'
  } catch {
    return 'not-executable'
  }
}

/** On Windows the names to try: the command itself if it has a PATHEXT extension, else with each one. */
function windowsNames(command: string): string[] {
  const exts = (process.env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)
  const ext = path.win32.extname(command).toUpperCase()
  if (ext && exts.some((e) => e.toUpperCase() === ext)) return [command]
  return exts.map((e) => command + e.toLowerCase())
}

/**
 * Finds `command`: a path (absolute, or relative to `cwd`) is checked directly; a bare name
 * is searched in `dirs` (executable bit on POSIX, PATHEXT on Windows). The error names the
 * command and every directory searched.
 */
export function resolveCommand(
  command: string,
  dirs: string[],
  platform: NodeJS.Platform = process.platform,
  cwd: string = process.cwd(),
): Resolved {
  const p = platform === 'win32' ? path.win32 : path.posix
  if (!command.trim()) return { ok: false, error: 'The MCP server has an empty "command".' }
  const names = (c: string): string[] => (platform === 'win32' ? windowsNames(c) : [c])
  const isPath =
    p.isAbsolute(command) ||
    command.includes('/') ||
    (platform === 'win32' && command.includes('\\'))
  if (isPath) {
    const full = p.resolve(cwd, command)
    for (const candidate of names(full)) {
      const state = executable(candidate, platform)
      if (state === 'yes') return { ok: true, path: candidate }
      if (state === 'not-executable') {
        return {
          ok: false,
          error: `The command "${command}" (${candidate}) is not executable (try chmod +x).`,
        }
      }
    }
    return { ok: false, error: `The command "${command}" does not exist (${full}).` }
  }
  const notExecutable: string[] = []
  for (const dir of dirs) {
    for (const name of names(command)) {
      const candidate = p.join(dir, name)
      const state = executable(candidate, platform)
      if (state === 'yes') return { ok: true, path: candidate }
      if (state === 'not-executable') notExecutable.push(candidate)
    }
  }
  const searched = dirs.length > 0 ? dirs.join(', ') : '(no directories)'
  const extra =
    notExecutable.length > 0 ? ` Found but not executable: ${notExecutable.join(', ')}.` : ''
  return {
    ok: false,
    error:
      `The command "${command}" was not found. Searched ${dirs.length} directories: ${searched}.${extra} ` +
      'Install it, or give its absolute path as the server\'s "command".',
  }
}

const KEPT_VARS = ['HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG']
/** Windows programs do not run without these (system paths, profile folders). */
const KEPT_VARS_WINDOWS = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PATHEXT',
  'COMSPEC',
]

/**
 * The complete environment of a stdio server: PATH (the search dirs), HOME, USER, LOGNAME,
 * SHELL, TERM, LANG when set in `base` (plus the system variables Windows needs), then the
 * server's own `env`. Nothing else from the app's environment — no API keys.
 */
export function minimalEnv(opts: {
  pathDirs: string[]
  serverEnv?: Record<string, string>
  base?: NodeJS.ProcessEnv
}): Record<string, string> {
  const base = opts.base ?? process.env
  const env: Record<string, string> = {}
  const kept = process.platform === 'win32' ? [...KEPT_VARS, ...KEPT_VARS_WINDOWS] : KEPT_VARS
  for (const key of kept) {
    const value = base[key]
    // exported shell functions ("() { ...") are a known injection vector
    if (value !== undefined && !value.startsWith('()')) env[key] = value
  }
  env['PATH'] = opts.pathDirs.join(path.delimiter)
  for (const [key, value] of Object.entries(opts.serverEnv ?? {})) env[key] = value
  return env
}
