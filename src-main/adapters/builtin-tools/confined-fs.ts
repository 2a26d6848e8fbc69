/**
 * File access that stays inside the workspace even while the tree changes under it.
 * Resolving a path and then opening it by name leaves a gap: a folder swapped for a
 * symbolic link in between sends the open outside. So every access opens once and then
 * checks the handle it got, and works on that handle only:
 *
 * - Linux: `/proc/self/fd/N` names the opened file or folder itself; its link text is
 *   where the handle really is, and paths under it (`/proc/self/fd/N/name`) go through the
 *   opened folder, whatever happens to the names on the way there. Folders are listed and
 *   files created through that link.
 * - Elsewhere (macOS, Windows): after opening, the name is resolved again with `realpath`
 *   (twice, around a `stat`) and must be inside the workspace and be the same file (device
 *   and inode) as the handle. This narrows the race without closing it, and a folder is
 *   still listed by name between two such checks.
 *
 * Files are opened without following a link in their last part and without blocking (a
 * FIFO would never answer). Missing folders on the way to a new file are made one at a time,
 * each checked the same way. On Linux, writes go to a temp file in the checked folder that
 * is then renamed over the target; elsewhere a rename by name could be redirected, so the
 * file is written in place through its checked handle. A file with more than one hard link
 * is refused for writes and edits.
 */
import { randomBytes } from 'node:crypto'
import { constants, promises as fsp, type Dirent, type Stats } from 'node:fs'
import path from 'node:path'
import { ToolError } from './tool-def'
import { errCode, isInside, NOFOLLOW, relativeTo, type Workspace } from './workspace'

/**
 * Which check is used: `/proc/self/fd` where Linux has it, else the re-resolve check. Tests
 * switch it off to run the macOS and Windows check on Linux.
 */
export const confinement = { procFd: process.platform === 'linux' }
const canOpenFolders = process.platform !== 'win32'
const NONBLOCK: number = constants.O_NONBLOCK ?? 0
const DIRECTORY: number = constants.O_DIRECTORY ?? 0

type FileHandle = fsp.FileHandle

function escaped(ws: Workspace, real: string): ToolError {
  return new ToolError(
    `The path ${relativeTo(ws, real)} moved outside the workspace (${ws.root}) while it was ` +
      'being opened (a folder on the way was replaced, e.g. by a symbolic link); nothing was read or written.',
  )
}

/** Checks that an open handle is inside the workspace (see the header). */
async function verifyHandle(ws: Workspace, fh: FileHandle, real: string): Promise<void> {
  if (confinement.procFd) {
    const where = await fsp.readlink(`/proc/self/fd/${fh.fd}`).catch(() => null)
    if (where !== null && path.isAbsolute(where)) {
      if (!isInside(ws, where)) throw escaped(ws, real)
      return
    }
  }
  const [st, again] = await Promise.all([fh.stat(), fsp.realpath(real).catch(() => null)])
  const named = again === null ? null : await fsp.stat(again).catch(() => null)
  if (again === null || named === null || !isInside(ws, again)) throw escaped(ws, real)
  if (named.dev !== st.dev || named.ino !== st.ino) throw escaped(ws, real)
  // the name may have been swapped between the two look-ups: it must still resolve the same
  if ((await fsp.realpath(real).catch(() => null)) !== again) throw escaped(ws, real)
}

/** Opens `real` with `flags` and checks the handle (see the header); closed when the check fails. */
async function openChecked(
  ws: Workspace,
  real: string,
  flags: number,
  mode?: number,
): Promise<FileHandle> {
  const fh = await fsp.open(real, flags, mode).catch((e: unknown) => {
    throw openError(ws, real, e)
  })
  try {
    await verifyHandle(ws, fh, real)
    return fh
  } catch (e) {
    await fh.close()
    throw e
  }
}

/** A path that reaches the opened folder through its handle where the platform allows it. */
function viaHandle(fh: FileHandle | null, real: string): string {
  return confinement.procFd && fh !== null ? `/proc/self/fd/${fh.fd}` : real
}

export interface OpenedFile {
  fh: FileHandle
  stat: Stats
}

/**
 * Opens an existing file (a real path from resolveInWorkspace) for reading and checks the
 * handle; the caller decides what to do with a folder or another non-file (see `stat`).
 */
export async function openFileInside(ws: Workspace, real: string): Promise<OpenedFile> {
  const fh = await openChecked(ws, real, constants.O_RDONLY | NOFOLLOW | NONBLOCK)
  try {
    return { fh, stat: await fh.stat() }
  } catch (e) {
    await fh.close()
    throw e
  }
}

/** Reads a whole file inside the workspace through a checked handle. */
export async function readFileInside(
  ws: Workspace,
  real: string,
  maxBytes: number,
): Promise<{ buf: Buffer; stat: Stats } | { tooBig: Stats }> {
  const { fh, stat } = await openFileInside(ws, real)
  try {
    if (!stat.isFile()) throw new ToolError(`${relativeTo(ws, real)} is not a regular file.`)
    if (stat.size > maxBytes) return { tooBig: stat }
    return { buf: await fh.readFile(), stat }
  } finally {
    await fh.close()
  }
}

/** Lists a folder inside the workspace through a checked handle. */
export async function readDirInside(ws: Workspace, real: string): Promise<Dirent[]> {
  if (!canOpenFolders) {
    const entries = await fsp.readdir(real, { withFileTypes: true })
    const again = await fsp.realpath(real)
    if (!isInside(ws, again)) throw escaped(ws, real)
    return entries
  }
  const fh = await openChecked(ws, real, constants.O_RDONLY | DIRECTORY | NOFOLLOW)
  try {
    const entries = await fsp.readdir(viaHandle(fh, real), { withFileTypes: true })
    if (!confinement.procFd) await verifyHandle(ws, fh, real)
    return entries
  } finally {
    await fh.close()
  }
}

/**
 * Replaces (or creates) the file at `real` with `data`: a temp file in the checked folder,
 * renamed over the target. Refuses a target that is a folder, a symbolic link or a file
 * with more than one hard link. Returns the size the file had before, or null if new.
 */
export async function writeFileInside(
  ws: Workspace,
  real: string,
  data: Buffer,
): Promise<{ before: number | null }> {
  await makeFoldersInside(ws, path.dirname(real))
  return confinement.procFd && canOpenFolders
    ? writeThroughFolder(ws, real, data)
    : writeInPlace(ws, real, data)
}

/**
 * Creates the missing folders on the way to `dir` (a real path inside the workspace) one at
 * a time. On Linux each is made through the checked handle of the folder above it, so a
 * folder swapped for a link on the way cannot send a new folder outside; elsewhere each is
 * made by name and resolved again after (a swap can still leave an empty folder outside).
 */
async function makeFoldersInside(ws: Workspace, dir: string): Promise<void> {
  const rel = path.relative(ws.root, dir)
  if (rel === '') return
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw escaped(ws, dir)
  let current = ws.root
  for (const part of rel.split(path.sep)) {
    const next = path.join(current, part)
    if (confinement.procFd && canOpenFolders) {
      const fh = await openChecked(ws, current, constants.O_RDONLY | DIRECTORY | NOFOLLOW)
      try {
        await madeOrThere(ws, next, path.join(viaHandle(fh, current), part))
      } finally {
        await fh.close()
      }
    } else {
      await madeOrThere(ws, next, next)
      const again = await fsp.realpath(next).catch(() => null)
      if (again === null || !isInside(ws, again)) throw escaped(ws, next)
    }
    current = next
  }
}

/** mkdir at `at` (the path `real` names); a folder already there is fine, a file is not */
async function madeOrThere(ws: Workspace, real: string, at: string): Promise<void> {
  try {
    await fsp.mkdir(at)
  } catch (e) {
    if (errCode(e) !== 'EEXIST') throw e
    const st = await fsp.lstat(at)
    if (st.isSymbolicLink()) return // opened with O_NOFOLLOW next: refused there if it leads out
    if (!st.isDirectory())
      throw new ToolError(`"${relativeTo(ws, real)}" is a file, so it cannot hold a folder.`)
  }
}

/** Linux: temp file and rename, both through the checked folder handle. */
async function writeThroughFolder(
  ws: Workspace,
  real: string,
  data: Buffer,
): Promise<{ before: number | null }> {
  const dir = path.dirname(real)
  const base = path.basename(real)
  const dirFh = await openChecked(ws, dir, constants.O_RDONLY | DIRECTORY | NOFOLLOW)
  try {
    const at = viaHandle(dirFh, dir)
    const existing = await fsp.lstat(path.join(at, base)).catch((e: unknown) => {
      if (errCode(e) === 'ENOENT') return null
      throw e
    })
    if (existing) refuseTarget(ws, real, existing)
    const temp = path.join(at, `.${base}.cairn-${randomBytes(6).toString('hex')}.tmp`)
    const mode = existing ? existing.mode & 0o7777 : 0o666
    const fh = await fsp.open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
      mode,
    )
    try {
      try {
        await fh.writeFile(data)
        await fh.sync()
      } finally {
        await fh.close()
      }
      await fsp.rename(temp, path.join(at, base))
    } catch (e) {
      await fsp.rm(temp, { force: true }).catch(() => {})
      throw e
    }
    return { before: existing ? existing.size : null }
  } finally {
    await dirFh.close()
  }
}

/**
 * Elsewhere: a rename by name can be sent to another folder by a swap between its two
 * look-ups, so the file is opened (or created) once, its handle checked, and written through
 * it. What a swap during the open can still do is create an empty file outside.
 */
async function writeInPlace(
  ws: Workspace,
  real: string,
  data: Buffer,
): Promise<{ before: number | null }> {
  const existing = await fsp.lstat(real).catch(() => null)
  if (existing) refuseTarget(ws, real, existing)
  const fh = await openChecked(ws, real, constants.O_WRONLY | constants.O_CREAT | NOFOLLOW, 0o666)
  try {
    const st = await fh.stat()
    refuseTarget(ws, real, st)
    await fh.truncate(0)
    await fh.write(data, 0, data.length, 0)
    await fh.sync()
    return { before: existing ? st.size : null }
  } finally {
    await fh.close()
  }
}

/** Refuses to edit through a hard link (the other name may be outside the workspace). */
export function refuseHardLinked(ws: Workspace, real: string, stat: Stats): void {
  if (stat.isFile() && stat.nlink > 1) {
    throw new ToolError(
      `${relativeTo(ws, real)} has ${stat.nlink} hard links, so the same file may also be ` +
        'reachable from outside the workspace; the built-in tools do not change such files. ' +
        'Copy it to a new file and change the copy, or use run_command if you really mean it.',
    )
  }
}

function refuseTarget(ws: Workspace, real: string, st: Stats): void {
  const rel = relativeTo(ws, real)
  if (st.isDirectory())
    throw new ToolError(`"${rel}" is a folder; give the path of a file inside it.`)
  if (st.isSymbolicLink()) throw escaped(ws, real)
  if (!st.isFile()) throw new ToolError(`"${rel}" is not a regular file; it was not changed.`)
  refuseHardLinked(ws, real, st)
}

function openError(ws: Workspace, real: string, e: unknown): Error {
  const code = errCode(e)
  // ELOOP/ENOTDIR with O_NOFOLLOW: the last part became a symbolic link after it was resolved
  if (code === 'ELOOP' || code === 'EMLINK' || code === 'ENOTDIR') return escaped(ws, real)
  if (code === 'EISDIR') return new ToolError(`"${relativeTo(ws, real)}" is a folder, not a file.`)
  if (code === 'ENOENT') {
    return new ToolError(
      `${relativeTo(ws, real)} does not exist (any more) in the workspace (${ws.root}).`,
    )
  }
  return e instanceof Error ? e : new Error(String(e))
}
