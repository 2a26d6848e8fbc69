/**
 * Workspace confinement: every path a file tool touches must lie inside the session's
 * workspace folder, after every symbolic link is resolved. This is the security core of
 * the built-in file tools.
 *
 * - A relative path is relative to the workspace; an absolute one is accepted only if it
 *   lies inside it. `~` stands for the home folder (and is then checked like any path).
 * - The path is resolved with the native `realpath` (which also gives the on-disk case on
 *   macOS and Windows). For a path that does not exist yet, the deepest existing ancestor
 *   is resolved and the rest appended; a dangling symbolic link on the way is followed to
 *   where it points, so a write through it cannot land outside.
 * - The real path must equal the real workspace path or start with it plus a separator
 *   (so `/ws-other` is not inside `/ws`); on a case-insensitive file system the comparison
 *   ignores case.
 * - Callers then use the resolved real path, never the input, and open it through
 *   confined-fs.ts, which checks the handle it got: a folder swapped for a link between
 *   this check and the open is caught there.
 */
import { constants, promises as fsp } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { ToolError } from './tool-def'

export interface Workspace {
  /** the real path of the workspace folder */
  root: string
  caseInsensitive: boolean
}

export interface ResolvedPath {
  /** the real path (symbolic links resolved) */
  real: string
  /** the path relative to the workspace, with `/` separators; `.` for the workspace itself */
  rel: string
  exists: boolean
}

/** `~/Cairn`: the workspace of sessions that have none of their own. */
export function defaultWorkspace(home: string = homedir()): string {
  return path.join(home, 'Cairn')
}

/** Opening a file without following a symbolic link in its last part (where supported). */
export const NOFOLLOW: number = constants.O_NOFOLLOW ?? 0

const probed = new Map<string, boolean>()

/** Creates the workspace folder if missing and resolves its real path. */
export async function openWorkspace(dir: string): Promise<Workspace> {
  if (!dir || dir.includes('\0')) throw new ToolError('No workspace folder is configured.')
  const abs = path.resolve(expandHome(dir))
  try {
    await fsp.mkdir(abs, { recursive: true })
  } catch (e) {
    throw new ToolError(`The workspace folder ${abs} cannot be created: ${errText(e)}`)
  }
  const root = await fsp.realpath(abs)
  let caseInsensitive = probed.get(root)
  if (caseInsensitive === undefined) {
    caseInsensitive = await probeCaseInsensitive(root)
    probed.set(root, caseInsensitive)
  }
  return { root, caseInsensitive }
}

/** Whether `real` (a real path) is the workspace or inside it. */
export function isInside(ws: Workspace, real: string): boolean {
  const fold = (s: string): string => (ws.caseInsensitive ? s.normalize('NFC').toLowerCase() : s)
  const p = fold(real)
  const root = fold(ws.root)
  const prefix = root.endsWith(path.sep) ? root : root + path.sep
  return p === root || p.startsWith(prefix)
}

export function relativeTo(ws: Workspace, real: string): string {
  const rel = path.relative(ws.root, real)
  return rel === '' ? '.' : rel.split(path.sep).join('/')
}

/**
 * Resolves a path given to a tool. Throws a ToolError naming the path and the workspace
 * when it is not inside the workspace.
 */
export async function resolveInWorkspace(ws: Workspace, input: string): Promise<ResolvedPath> {
  if (input.includes('\0')) throw new ToolError(`The path "${input}" contains a NUL character.`)
  const expanded = expandHome(input.trim() === '' ? '.' : input)
  const abs = path.isAbsolute(expanded) ? path.resolve(expanded) : path.resolve(ws.root, expanded)
  const { real, exists } = await realpathLenient(abs, input)
  if (!isInside(ws, real)) {
    const lexicallyInside = isInside(ws, abs)
    throw new ToolError(
      `The path "${input}" is outside the workspace (${ws.root})` +
        (lexicallyInside ? ' through a symbolic link' : '') +
        '. This tool can only use files inside the workspace; use a path relative to the workspace folder.',
    )
  }
  return { real, rel: relativeTo(ws, real), exists }
}

/** realpath for paths that may not exist yet (see the header). */
async function realpathLenient(
  p: string,
  input: string,
  hops = 0,
): Promise<{ real: string; exists: boolean }> {
  if (hops > 40) {
    throw new ToolError(`The path "${input}" goes through too many symbolic links (a loop?).`)
  }
  try {
    return { real: await fsp.realpath(p), exists: true }
  } catch (e) {
    const code = errCode(e)
    if (code === 'ELOOP') {
      throw new ToolError(`The path "${input}" goes through a loop of symbolic links.`)
    }
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new ToolError(`The path "${input}" cannot be resolved: ${errText(e)}`)
    }
  }
  const stat = await fsp.lstat(p).catch(() => null)
  if (stat?.isSymbolicLink()) {
    // a dangling link: follow it to where a write would land
    const target = await fsp.readlink(p)
    const next = await realpathLenient(path.resolve(path.dirname(p), target), input, hops + 1)
    return { real: next.real, exists: false }
  }
  const parent = path.dirname(p)
  if (parent === p) return { real: p, exists: false }
  const up = await realpathLenient(parent, input, hops)
  return { real: path.join(up.real, path.basename(p)), exists: false }
}

/**
 * A file system is case-insensitive when the path with its letters' case swapped names
 * the same file. Without letters to swap, the platform's usual default is assumed.
 */
async function probeCaseInsensitive(root: string): Promise<boolean> {
  const swapped = [...root]
    .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
    .join('')
  if (swapped === root) return process.platform === 'darwin' || process.platform === 'win32'
  try {
    const [a, b] = await Promise.all([fsp.stat(root), fsp.stat(swapped)])
    return a.dev === b.dev && a.ino === b.ino
  } catch {
    return false
  }
}

function expandHome(p: string): string {
  if (p === '~') return homedir()
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(homedir(), p.slice(2))
  return p
}

export function errCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string'
    ? e.code
    : undefined
}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
