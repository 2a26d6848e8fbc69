/**
 * The read-only file tools: read_file and list_directory. Both resolve their path inside
 * the workspace first (see workspace.ts).
 */
import { createReadStream, promises as fsp } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import {
  formatBytes,
  looksBinary,
  optionalInt,
  optionalString,
  stringArg,
  text,
  ToolError,
  type BuiltinTool,
} from './tool-def'
import { openFileInside, readDirInside } from './confined-fs'
import {
  isInside,
  openWorkspace,
  resolveInWorkspace,
  type ResolvedPath,
  type Workspace,
} from './workspace'

/** Lines returned when the caller gives no limit. */
export const DEFAULT_READ_LINES = 2000
export const MAX_LIST_ENTRIES = 1000

export const readFileTool: BuiltinTool = {
  name: 'read_file',
  description:
    'Read a text file in the workspace. Paths are relative to the workspace folder. ' +
    `Returns the file's text; files longer than ${DEFAULT_READ_LINES} lines come back in parts: ` +
    'pass offset (the first line to read, from 1) and limit (how many lines) to read a part. ' +
    'Binary files are refused; very large files can only be read in parts.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace' },
      offset: { type: 'integer', minimum: 1, description: 'First line to read (1-based)' },
      limit: { type: 'integer', minimum: 1, description: 'Number of lines to read' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  annotations: { title: 'Read file', readOnlyHint: true, openWorldHint: false },
  async run(args, env) {
    const input = stringArg(args, 'path')
    const offset = optionalInt(args, 'offset', 1, Number.MAX_SAFE_INTEGER)
    const limit = optionalInt(args, 'limit', 1, Number.MAX_SAFE_INTEGER)
    const ws = await openWorkspace(env.workspace)
    const file = await existing(ws, input)
    const { fh, stat } = await openFileInside(ws, file.real)
    let buf: Buffer
    try {
      if (stat.isDirectory()) {
        throw new ToolError(
          `"${input}" is a folder, not a file. Use list_directory to see what it holds.`,
        )
      }
      if (!stat.isFile()) throw new ToolError(`"${input}" is not a regular file.`)
      const max = env.limits.maxFileBytes
      if (stat.size > max) {
        if (offset === undefined && limit === undefined) {
          throw new ToolError(
            `${file.rel} is ${formatBytes(stat.size)}, above read_file's limit of ${formatBytes(max)}. ` +
              'Read a part of it with offset and limit (line numbers, e.g. offset 1 and limit 500), ' +
              'or find the lines you need with search_files (text).',
          )
        }
        return text(
          await readPartStreaming(
            fh,
            file,
            stat.size,
            offset ?? 1,
            limit ?? DEFAULT_READ_LINES,
            max,
          ),
        )
      }
      buf = await fh.readFile()
    } finally {
      await fh.close()
    }
    if (buf.includes(0)) throw binaryError(file, stat.size)
    const content = stripBom(buf.toString('utf8'))
    if (content === '') return text(`(${file.rel} is empty)`)
    const lines = splitLines(content)
    if (offset === undefined && limit === undefined && lines.length <= DEFAULT_READ_LINES) {
      return text(content)
    }
    const from = offset ?? 1
    if (from > lines.length) {
      throw new ToolError(
        `offset ${from} is past the end of ${file.rel}, which has ${lines.length} lines.`,
      )
    }
    const to = Math.min(lines.length, from - 1 + (limit ?? DEFAULT_READ_LINES))
    const more = to < lines.length ? `; to read on, call read_file with offset ${to + 1}` : ''
    return text(
      `[lines ${from}-${to} of ${lines.length} in ${file.rel}${more}]\n` +
        lines.slice(from - 1, to).join('\n'),
    )
  },
}

export const listDirectoryTool: BuiltinTool = {
  name: 'list_directory',
  description:
    'List a folder in the workspace (default: the workspace folder itself). One entry per ' +
    'line, sorted by name; folders end with "/". Symbolic links that lead outside the ' +
    `workspace are marked and not followed. At most ${MAX_LIST_ENTRIES} entries are shown.`,
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Folder path, relative to the workspace (default ".")' },
    },
    additionalProperties: false,
  },
  annotations: { title: 'List folder', readOnlyHint: true, openWorldHint: false },
  async run(args, env) {
    const input = optionalString(args, 'path') ?? '.'
    const ws = await openWorkspace(env.workspace)
    const dir = await existing(ws, input)
    const stat = await fsp.stat(dir.real)
    if (!stat.isDirectory()) {
      throw new ToolError(`"${input}" is a file, not a folder. Use read_file to read it.`)
    }
    const dirents = await readDirInside(ws, dir.real)
    dirents.sort((a, b) => compareNames(a.name, b.name))
    const shown = dirents.slice(0, MAX_LIST_ENTRIES)
    const lines = await Promise.all(
      shown.map(async (d) => {
        if (d.isDirectory()) return `${d.name}/`
        if (!d.isSymbolicLink()) return d.name
        return describeLink(ws, path.join(dir.real, d.name), d.name)
      }),
    )
    const where = dir.rel === '.' ? `The workspace folder (${ws.root})` : `${dir.rel}/`
    const header = `${where}: ${dirents.length} ${dirents.length === 1 ? 'entry' : 'entries'}`
    if (dirents.length === 0) return text(`${header} (the folder is empty)`)
    const cut =
      dirents.length > shown.length
        ? `\n[${dirents.length - shown.length} more entries not shown; list a subfolder or use search_files with a pattern]`
        : ''
    return text(`${header}\n${lines.join('\n')}${cut}`)
  },
}

/** Resolves a path that must exist. */
export async function existing(ws: Workspace, input: string): Promise<ResolvedPath> {
  const r = await resolveInWorkspace(ws, input)
  if (!r.exists) {
    throw new ToolError(
      `"${input}" does not exist in the workspace (${ws.root}). Use list_directory or search_files to find it.`,
    )
  }
  return r
}

async function describeLink(ws: Workspace, full: string, name: string): Promise<string> {
  let real: string
  try {
    real = await fsp.realpath(full)
  } catch {
    return `${name}@ (broken symbolic link)`
  }
  if (!isInside(ws, real)) return `${name}@ (symbolic link to outside the workspace, not followed)`
  const stat = await fsp.stat(real).catch(() => null)
  return stat?.isDirectory() ? `${name}/` : name
}

function compareNames(a: string, b: string): number {
  const la = a.toLowerCase()
  const lb = b.toLowerCase()
  if (la !== lb) return la < lb ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

function binaryError(file: ResolvedPath, size: number): ToolError {
  return new ToolError(
    `${file.rel} is a binary file (${formatBytes(size)}); read_file reads text files only.`,
  )
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s
}

/** Lines of a text; a final newline does not start another line. */
export function splitLines(s: string): string[] {
  const lines = s.split(/\r?\n/)
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** Reads lines [from, from + count) of a file too big to load, without loading it. */
async function readPartStreaming(
  fh: fsp.FileHandle,
  file: ResolvedPath,
  size: number,
  from: number,
  count: number,
  maxChars: number,
): Promise<string> {
  const first = Buffer.alloc(8192)
  const { bytesRead } = await fh.read(first, 0, first.length, 0)
  if (looksBinary(first.subarray(0, bytesRead))) throw binaryError(file, size)
  // the caller closes the handle
  const stream = createReadStream('', { fd: fh, encoding: 'utf8', start: 0, autoClose: false })
  const rl = createInterface({ input: stream, crlfDelay: Infinity })
  const out: string[] = []
  let chars = 0
  let n = 0
  let stoppedEarly = false
  let cutByChars = false
  try {
    for await (const line of rl) {
      n++
      if (n < from) continue
      if (out.length >= count) {
        stoppedEarly = true
        break
      }
      if (chars + line.length > maxChars) {
        if (out.length === 0) out.push(line.slice(0, maxChars))
        cutByChars = true
        stoppedEarly = true
        break
      }
      out.push(n === 1 ? stripBom(line) : line)
      chars += line.length + 1
    }
  } finally {
    rl.close()
    stream.destroy()
  }
  if (out.length === 0) {
    throw new ToolError(`offset ${from} is past the end of ${file.rel}, which has ${n} lines.`)
  }
  const to = from + out.length - 1
  const why = cutByChars ? ` (stopped at ${formatBytes(maxChars)} of text)` : ''
  const more = stoppedEarly
    ? `; more lines follow${why}: call read_file with offset ${to + 1} to read on`
    : ' (the end of the file)'
  return `[lines ${from}-${to} of ${file.rel}, a ${formatBytes(size)} file${more}]\n${out.join('\n')}`
}
