/**
 * Atomic file writes, the one implementation for every file Cairn replaces (settings,
 * secrets, the web token, the MCP process registry, turn logs, exports). The content goes
 * to a temp file beside the target (`.<name>.<pid>.<random>.tmp`, created exclusively with
 * the final mode), is flushed to disk, and is renamed over the target; then the directory
 * is flushed too, where the system allows it, so that the rename survives a power cut.
 * A reader sees the old file or the new one, never half of one.
 *
 * Synchronous (`writeFileAtomicSync`: the CLI, start-up) and asynchronous
 * (`writeFileAtomic`: never blocks the event loop while the disk works) variants.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export interface AtomicWriteOptions {
  /** the file's mode; default 600: what is written this way is private */
  mode?: number
}

const DEFAULT_MODE = 0o600
/** Windows may refuse a rename while another process reads the target: retried briefly */
const RETRYABLE_RENAME = new Set(['EPERM', 'EACCES', 'EBUSY'])
const RENAME_ATTEMPTS = 5
/** a directory that cannot be opened or flushed (Windows, some file systems): skipped */
const NO_DIR_SYNC = new Set([
  'EISDIR',
  'EINVAL',
  'ENOTSUP',
  'EOPNOTSUPP',
  'EPERM',
  'EACCES',
  'EBADF',
])

export function tempPathFor(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
}

function retryableRename(e: unknown, attempt: number): boolean {
  const code = (e as NodeJS.ErrnoException).code ?? ''
  return process.platform === 'win32' && RETRYABLE_RENAME.has(code) && attempt < RENAME_ATTEMPTS
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** Flushes a directory's entries (a rename or a new link in it) to disk, where supported. */
export function fsyncDirSync(dir: string): void {
  if (process.platform === 'win32') return
  let fd: number | undefined
  try {
    fd = fs.openSync(dir, 'r')
    fs.fsyncSync(fd)
  } catch (e) {
    if (!NO_DIR_SYNC.has((e as NodeJS.ErrnoException).code ?? '')) throw e
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** The same, without blocking the event loop. */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return
  let handle: fs.promises.FileHandle | undefined
  try {
    handle = await fs.promises.open(dir, 'r')
    await handle.sync()
  } catch (e) {
    if (!NO_DIR_SYNC.has((e as NodeJS.ErrnoException).code ?? '')) throw e
  } finally {
    await handle?.close()
  }
}

/** Writes `data` to a new temp file beside `target`, flushed; returns its path. */
function writeTempSync(target: string, data: string, mode: number): string {
  const temp = tempPathFor(target)
  const fd = fs.openSync(temp, 'wx', mode)
  try {
    fs.writeFileSync(fd, data, 'utf8')
    fs.fsyncSync(fd)
  } catch (e) {
    fs.closeSync(fd)
    fs.rmSync(temp, { force: true })
    throw e
  }
  fs.closeSync(fd)
  return temp
}

/** Writes `data` to a new temp file beside `target`, flushed; returns its path. */
export async function writeTempFile(
  target: string,
  data: string | Uint8Array,
  { mode = DEFAULT_MODE }: AtomicWriteOptions = {},
): Promise<string> {
  const temp = tempPathFor(target)
  const handle = await fs.promises.open(temp, 'wx', mode)
  try {
    await (typeof data === 'string' ? handle.writeFile(data, 'utf8') : handle.writeFile(data))
    await handle.sync()
  } catch (e) {
    await handle.close()
    await fs.promises.rm(temp, { force: true })
    throw e
  }
  await handle.close()
  return temp
}

export function writeFileAtomicSync(
  target: string,
  data: string,
  { mode = DEFAULT_MODE }: AtomicWriteOptions = {},
): void {
  const temp = writeTempSync(target, data, mode)
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.renameSync(temp, target)
        break
      } catch (e) {
        if (!retryableRename(e, attempt)) throw e
        sleepSync(10 * (attempt + 1))
      }
    }
  } catch (e) {
    fs.rmSync(temp, { force: true })
    throw e
  }
  fsyncDirSync(path.dirname(target))
}

export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const temp = await writeTempFile(target, data, options)
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.promises.rename(temp, target)
        break
      } catch (e) {
        if (!retryableRename(e, attempt)) throw e
        await new Promise((resolve) => setTimeout(resolve, 10 * (attempt + 1)))
      }
    }
  } catch (e) {
    await fs.promises.rm(temp, { force: true })
    throw e
  }
  await fsyncDir(path.dirname(target))
}

/** errors of file systems without hard links */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP', 'EXDEV'])

export type PublishResult = 'ok' | 'exists'

/**
 * Gives `temp`'s content (from `writeTempFile`) the name `target` unless `target` exists:
 * a hard link fails on an existing name, which is how turn-log numbers are reserved without
 * two processes taking the same one. Where hard links are not supported, falls back to an
 * exclusive create and a direct write (still exclusive, but a reader could see the file
 * before its content is complete). The temp file is left for the caller to remove.
 */
export async function publishExclusive(
  temp: string,
  target: string,
  data: string,
  { mode = DEFAULT_MODE }: AtomicWriteOptions = {},
): Promise<PublishResult> {
  try {
    await fs.promises.link(temp, target)
    await fsyncDir(path.dirname(target))
    return 'ok'
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? ''
    if (code === 'EEXIST') return 'exists'
    if (!NO_LINKS.has(code)) throw e
  }
  try {
    await fs.promises.writeFile(target, data, { flag: 'wx', mode, flush: true })
    await fsyncDir(path.dirname(target))
    return 'ok'
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists'
    throw e
  }
}

/** Copies `source` to `<source>.<label>-<timestamp>` (never over an existing file). */
export function copyAside(source: string, label: string, mode?: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  for (let n = 0; ; n++) {
    const target = `${source}.${label}-${stamp}${n === 0 ? '' : `-${n}`}`
    try {
      fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL)
      if (mode !== undefined) fs.chmodSync(target, mode)
      return target
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw e
    }
  }
}
