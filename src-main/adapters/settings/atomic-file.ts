/**
 * Synchronous atomic file writes: a temp file in the same directory (created
 * exclusively with the final mode), flushed, then renamed over the target.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const RETRYABLE_RENAME = new Set(['EPERM', 'EACCES', 'EBUSY'])

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

export function tempPathFor(target: string): string {
  const dir = path.dirname(target)
  return path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
}

/** `mode` defaults to 600: what is written this way (settings, secrets, tokens) is private. */
export function writeFileAtomicSync(target: string, data: string, mode = 0o600): void {
  const temp = tempPathFor(target)
  try {
    const fd = fs.openSync(temp, 'wx', mode)
    try {
      fs.writeFileSync(fd, data, 'utf8')
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    // Windows may refuse a rename while another process reads the target: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        fs.renameSync(temp, target)
        return
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? ''
        if (process.platform !== 'win32' || !RETRYABLE_RENAME.has(code) || attempt >= 5) throw e
        sleepSync(10 * (attempt + 1))
      }
    }
  } catch (e) {
    fs.rmSync(temp, { force: true })
    throw e
  }
}

/**
 * The same write without blocking the event loop while the disk works (the temp file is
 * written and flushed asynchronously, then renamed over the target).
 */
export async function writeFileAtomic(target: string, data: string, mode = 0o600): Promise<void> {
  const temp = tempPathFor(target)
  try {
    const handle = await fs.promises.open(temp, 'wx', mode)
    try {
      await handle.writeFile(data, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.promises.rename(temp, target)
        return
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? ''
        if (process.platform !== 'win32' || !RETRYABLE_RENAME.has(code) || attempt >= 5) throw e
        await new Promise((resolve) => setTimeout(resolve, 10 * (attempt + 1)))
      }
    }
  } catch (e) {
    await fs.promises.rm(temp, { force: true })
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
