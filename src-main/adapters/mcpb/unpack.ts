/**
 * Unpacks an MCPB bundle (a zip) into a folder of its own, refusing what could reach
 * outside it or fill the disk: names that are absolute, climb out (`..`) or use `\`;
 * links and other special files; encrypted entries; too many files; an entry or a whole
 * larger than the limits, by what the zip declares and by what it actually holds; an
 * entry that expands far more than any real file (a zip bomb). On any refusal the folder
 * is removed: nothing is left behind.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Transform, type TransformCallback } from 'node:stream'
import yauzl from 'yauzl'
import { ExpectedError } from '../../core/errors'

export const UNPACK_LIMITS = {
  /** the bundle file itself */
  bundleBytes: 200 * 1024 * 1024,
  files: 10_000,
  /** one file, unpacked */
  entryBytes: 100 * 1024 * 1024,
  /** all files, unpacked */
  totalBytes: 500 * 1024 * 1024,
  /** unpacked size over packed size, for entries past 1 MB unpacked */
  ratio: 200,
}
export type UnpackLimits = typeof UNPACK_LIMITS

/** The bundle cannot be installed: what is wrong with it, for the person. */
export class ExtensionRefused extends ExpectedError<'bad_request'> {
  override name = 'ExtensionRefused'
  constructor(file: string, reason: string) {
    super('bad_request', `${file} cannot be installed: ${reason}`, {
      details: { fields: { file: reason } },
    })
  }
}

const S_IFMT = 0o170000
const S_IFREG = 0o100000
const S_IFDIR = 0o040000
const S_IFLNK = 0o120000

/** Why an entry's name is not safe to unpack; null when it is. */
function nameProblem(name: string): string | null {
  if (name === '' || name.includes('\0')) return 'an entry has no name'
  if (name.includes('\\')) return `the entry "${name}" uses "\\" in its name`
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    return `the entry "${name}" has an absolute path`
  if (name.split('/').some((part) => part === '..'))
    return `the entry "${name}" points outside the bundle's folder ("..")`
  return null
}

/** What kind of file the entry is, from the system that made the zip; null: special. */
function kindOf(entry: yauzl.Entry, name: string): 'file' | 'dir' | 'link' | null {
  const unix = entry.versionMadeBy >> 8 === 3
  const mode = unix ? (entry.externalFileAttributes >>> 16) & S_IFMT : 0
  if (mode === S_IFLNK) return 'link'
  if (name.endsWith('/')) return mode === 0 || mode === S_IFDIR ? 'dir' : null
  return mode === 0 || mode === S_IFREG ? 'file' : null
}

/** Counts the bytes that actually come out of an entry and stops past its limit. */
function counter(limit: number, onTooMany: () => Error): Transform {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length
      if (seen > limit) done(onTooMany())
      else done(null, chunk)
    },
  })
}

interface Unpacking {
  zip: yauzl.ZipFile
  dest: string
  file: string
  limits: UnpackLimits
  total: number
  files: number
}

function check(u: Unpacking, entry: yauzl.Entry, name: string): 'file' | 'dir' {
  const refuse = (reason: string): never => {
    throw new ExtensionRefused(u.file, reason)
  }
  const bad = nameProblem(name)
  if (bad) refuse(bad)
  const kind = kindOf(entry, name)
  if (kind === 'link') refuse(`the entry "${name}" is a link, which could point anywhere`)
  if (kind === null) refuse(`the entry "${name}" is not a plain file or folder`)
  if (entry.isEncrypted()) refuse(`the entry "${name}" is encrypted`)
  const size = entry.uncompressedSize
  if (size > u.limits.entryBytes)
    refuse(`the entry "${name}" unpacks to ${mb(size)}, more than ${mb(u.limits.entryBytes)}`)
  u.total += size
  if (u.total > u.limits.totalBytes) refuse(`it unpacks to more than ${mb(u.limits.totalBytes)}`)
  if (size > 1024 * 1024 && size > u.limits.ratio * Math.max(1, entry.compressedSize))
    refuse(
      `the entry "${name}" expands ${Math.round(size / Math.max(1, entry.compressedSize))} times: a zip bomb, not a program`,
    )
  const target = path.resolve(u.dest, name)
  if (target !== u.dest && !target.startsWith(u.dest + path.sep))
    refuse(`the entry "${name}" points outside the bundle's folder`)
  return kind as 'file' | 'dir'
}

async function writeEntry(u: Unpacking, entry: yauzl.Entry, name: string): Promise<void> {
  const kind = check(u, entry, name)
  const target = path.resolve(u.dest, name)
  if (kind === 'dir') {
    await fs.promises.mkdir(target, { recursive: true, mode: 0o700 })
    return
  }
  u.files += 1
  await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
  const stream = await u.zip.openReadStreamPromise(entry)
  const tooLarge = () =>
    new ExtensionRefused(u.file, `the entry "${name}" holds more than it declares`)
  // 'wx': an entry named twice, or over a folder, fails instead of replacing
  await pipeline(
    stream,
    counter(entry.uncompressedSize, tooLarge),
    fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  )
}

function mb(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
}

async function openZip(source: Uint8Array | string, file: string): Promise<yauzl.ZipFile> {
  const options = { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }
  try {
    return typeof source === 'string'
      ? await yauzl.openPromise(source, options)
      : await yauzl.fromBufferPromise(Buffer.from(source), options)
  } catch {
    throw new ExtensionRefused(file, 'it is not a zip archive (an .mcpb bundle is one)')
  }
}

/**
 * Unpacks `source` (the bundle's bytes, or its path) into `dest`, which must not exist.
 * Returns how many files and bytes it holds. Throws ExtensionRefused, leaving nothing.
 */
export async function unpackBundle(
  source: Uint8Array | string,
  dest: string,
  file: string,
  limits: UnpackLimits = UNPACK_LIMITS,
): Promise<{ files: number; bytes: number }> {
  const size = typeof source === 'string' ? (await fs.promises.stat(source)).size : source.length
  if (size > limits.bundleBytes)
    throw new ExtensionRefused(file, `it is ${mb(size)}, more than ${mb(limits.bundleBytes)}`)
  const zip = await openZip(source, file)
  if (zip.entryCount > limits.files) {
    zip.close()
    throw new ExtensionRefused(file, `it holds ${zip.entryCount} files, more than ${limits.files}`)
  }
  await fs.promises.mkdir(dest, { recursive: false, mode: 0o700 })
  const u: Unpacking = { zip, dest: path.resolve(dest), file, limits, total: 0, files: 0 }
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (e: unknown) =>
        reject(e instanceof ExpectedError ? e : new ExtensionRefused(file, zipWords(e))),
      )
      zip.on('end', () => resolve())
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = yauzl.getFileNameLowLevel(
          entry.generalPurposeBitFlag,
          entry.fileNameRaw,
          entry.extraFields,
          true,
        )
        writeEntry(u, entry, name).then(
          () => zip.readEntry(),
          (e: unknown) =>
            reject(e instanceof ExpectedError ? e : new ExtensionRefused(file, zipWords(e))),
        )
      })
      zip.readEntry()
    })
  } catch (e) {
    zip.close()
    await fs.promises.rm(dest, { recursive: true, force: true })
    throw e
  }
  return { files: u.files, bytes: u.total }
}

function zipWords(e: unknown): string {
  return `it is damaged (${e instanceof Error ? e.message : String(e)})`
}
