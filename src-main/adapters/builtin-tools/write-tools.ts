/**
 * The file tools that change files: write_file and edit_file. Both write to the resolved
 * real path inside the workspace, never to the path as given, through a checked folder
 * handle and a temp file renamed into place (see confined-fs.ts).
 */
import { existing } from './read-tools'
import { formatBytes, optionalBool, stringArg, text, ToolError, type BuiltinTool } from './tool-def'
import { openFileInside, refuseHardLinked, writeFileInside } from './confined-fs'
import { openWorkspace, resolveInWorkspace, type ResolvedPath, type Workspace } from './workspace'

export const writeFileTool: BuiltinTool = {
  name: 'write_file',
  description:
    'Create a file in the workspace, or replace its whole content. Paths are relative to the ' +
    'workspace folder; missing parent folders are created. To change part of an existing ' +
    'file, prefer edit_file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace' },
      content: { type: 'string', description: 'The complete new content of the file' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Write file',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run(args, env) {
    const input = stringArg(args, 'path')
    const content = stringArg(args, 'content')
    const ws = await openWorkspace(env.workspace)
    const file = await resolveInWorkspace(ws, input)
    if (file.rel === '.')
      throw new ToolError('The path names the workspace folder itself; give a file name.')
    const { bytes, before } = await writeText(ws, file, content)
    return text(
      before === null
        ? `Created ${file.rel} (${bytes} bytes written).`
        : `Replaced ${file.rel} (${bytes} bytes written; it had ${before} bytes before).`,
    )
  },
}

export const editFileTool: BuiltinTool = {
  name: 'edit_file',
  description:
    'Edit a text file in the workspace by exact string replacement: old_string must match ' +
    'the file exactly (including whitespace and indentation) and only once, unless ' +
    'replace_all is true. Include enough surrounding lines to make it unique. Read the ' +
    'file first. To create a file, use write_file.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace' },
      old_string: { type: 'string', description: 'The exact text to replace' },
      new_string: { type: 'string', description: 'The text to put in its place' },
      replace_all: {
        type: 'boolean',
        description: 'Replace every occurrence of old_string (default false)',
      },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
  annotations: {
    title: 'Edit file',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(args, env) {
    const input = stringArg(args, 'path')
    let oldString = stringArg(args, 'old_string')
    let newString = stringArg(args, 'new_string')
    const replaceAll = optionalBool(args, 'replace_all') ?? false
    if (oldString === '') {
      throw new ToolError(
        'old_string is empty. Give the exact text to replace; to create a file, use write_file.',
      )
    }
    if (oldString === newString) {
      throw new ToolError('old_string and new_string are the same, so there is nothing to change.')
    }
    const ws = await openWorkspace(env.workspace)
    const file = await existing(ws, input)
    const { fh, stat } = await openFileInside(ws, file.real)
    let buf: Buffer
    try {
      if (!stat.isFile()) throw new ToolError(`"${input}" is not a file.`)
      refuseHardLinked(ws, file.real, stat)
      if (stat.size > env.limits.maxFileBytes) {
        throw new ToolError(
          `${file.rel} is ${formatBytes(stat.size)}, above the ${formatBytes(env.limits.maxFileBytes)} that edit_file handles.`,
        )
      }
      buf = await fh.readFile()
    } finally {
      await fh.close()
    }
    if (buf.includes(0))
      throw new ToolError(`${file.rel} is a binary file; edit_file edits text files only.`)
    const content = buf.toString('utf8')
    let at = positions(content, oldString)
    if (at.length === 0 && content.includes('\r\n') && /(?<!\r)\n/.test(oldString)) {
      // the file has Windows line endings and the model wrote plain ones
      const crlf = (s: string): string => s.replace(/\r?\n/g, '\r\n')
      at = positions(content, crlf(oldString))
      if (at.length > 0) {
        oldString = crlf(oldString)
        newString = crlf(newString)
      }
    }
    if (at.length === 0) {
      throw new ToolError(
        `old_string was not found in ${file.rel}; the file is unchanged. Read the file again ` +
          'with read_file and copy the text exactly, including whitespace, indentation and line breaks.',
      )
    }
    if (at.length > 1 && !replaceAll) {
      const lines = at.slice(0, 10).map((i) => lineOf(content, i))
      throw new ToolError(
        `old_string was found ${at.length} times in ${file.rel} (lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}); ` +
          'the file is unchanged. Add surrounding lines to make it unique, or set replace_all to true to replace every one.',
      )
    }
    const next = replaceAll
      ? content.split(oldString).join(newString)
      : content.slice(0, at[0]) + newString + content.slice((at[0] ?? 0) + oldString.length)
    const { bytes } = await writeText(ws, file, next)
    const where =
      at.length === 1 ? `at line ${lineOf(content, at[0] ?? 0)}` : `${at.length} occurrences`
    return text(`Edited ${file.rel}: replaced ${where} (the file now has ${bytes} bytes).`)
  },
}

async function writeText(
  ws: Workspace,
  file: ResolvedPath,
  content: string,
): Promise<{ bytes: number; before: number | null }> {
  const data = Buffer.from(content, 'utf8')
  const { before } = await writeFileInside(ws, file.real, data)
  return { bytes: data.length, before }
}

/** Start offsets of the non-overlapping occurrences of `needle`. */
function positions(haystack: string, needle: string): number[] {
  const out: number[] = []
  for (
    let i = haystack.indexOf(needle);
    i !== -1;
    i = haystack.indexOf(needle, i + needle.length)
  ) {
    out.push(i)
  }
  return out
}

function lineOf(s: string, index: number): number {
  let n = 1
  for (let i = s.indexOf('\n'); i !== -1 && i < index; i = s.indexOf('\n', i + 1)) n++
  return n
}
