/**
 * Asynchronous atomic writes for the turn logs: the content goes to a temp file in the
 * same directory first, so a reader never sees half a file. `publishExclusive` puts it
 * in place only if the name is free (a hard link fails on an existing name), which is
 * how call numbers are reserved without two processes taking the same one.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

export function tempName(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
}

/** Writes `data` to a fresh temp file beside `target`; returns its path. */
export async function writeTemp(target: string, data: string): Promise<string> {
  const temp = tempName(target)
  await fs.writeFile(temp, data, { flag: 'wx', mode: 0o600 })
  return temp
}

/** temp + rename */
export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const temp = await writeTemp(target, data)
  try {
    await fs.rename(temp, target)
  } catch (e) {
    await fs.rm(temp, { force: true })
    throw e
  }
}

/** errors of file systems without hard links */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP', 'EXDEV'])

export type PublishResult = 'ok' | 'exists'

/**
 * Gives `temp`'s content the name `target` unless `target` exists. Where hard links are
 * not supported, falls back to an exclusive create and a direct write (still exclusive,
 * but a reader could see the file before its content is complete).
 */
export async function publishExclusive(
  temp: string,
  target: string,
  data: string,
): Promise<PublishResult> {
  try {
    await fs.link(temp, target)
    return 'ok'
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? ''
    if (code === 'EEXIST') return 'exists'
    if (!NO_LINKS.has(code)) throw e
  }
  try {
    await fs.writeFile(target, data, { flag: 'wx' })
    return 'ok'
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists'
    throw e
  }
}
