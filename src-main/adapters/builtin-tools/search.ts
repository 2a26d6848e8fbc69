/**
 * search_files: find files by glob pattern and/or lines by text, inside the workspace.
 * The walk skips `.git`, `node_modules` (and other VCS folders), never follows a symbolic
 * link to a folder, and follows a symbolic link to a file only when it stays inside the
 * workspace. Binary files and files above the size limit are skipped, and counted.
 *
 * Patterns and texts are model input: globs and regular expressions run on RE2 (linear
 * time), and the line loop gives the event loop a turn every few milliseconds and stops as
 * soon as the call is cancelled.
 */
import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { linearRegExp, type LinearRegExp } from '../../core/linear-regex'
import type { ToolOutcome } from '../../core/ports'
import { compileGlob, type GlobMatcher } from './glob'
import { existing } from './read-tools'
import {
  formatBytes,
  looksBinary,
  optionalBool,
  optionalInt,
  optionalString,
  text,
  ToolError,
  type BuiltinTool,
  type ToolEnv,
} from './tool-def'
import { readDirInside, readFileInside } from './confined-fs'
import { isInside, openWorkspace, relativeTo, type ResolvedPath, type Workspace } from './workspace'

export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn'])
export const DEFAULT_MAX_RESULTS = 200
export const MAX_RESULTS = 2000
/** files looked at before the search gives up (and says so) */
export const MAX_FILES_SCANNED = 50_000
const MAX_LINE_CHARS = 300
/** a regular expression is run on at most this much of a line */
const MAX_TESTED_CHARS = 4000
/** the line loop yields to the event loop after this long */
const YIELD_EVERY_MS = 8

export const searchFilesTool: BuiltinTool = {
  name: 'search_files',
  description:
    'Find files in the workspace by name pattern and/or search their lines for text. ' +
    'pattern is a glob matched against paths relative to the search folder: "*" within a ' +
    'name, "**" across folders, "?", "{a,b}", "[a-z]" ("*.ts" matches only in the search ' +
    'folder itself; "**/*.ts" at any depth). text is a plain string, or a regular ' +
    'expression when regex is true (RE2 syntax: no lookarounds or backreferences). With ' +
    'text, returns "file:line: text" for each matching line; with only a pattern, returns ' +
    'the matching file paths. Paths in the results are ' +
    'relative to the workspace. Skips .git, node_modules and binary files.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Glob for file paths, e.g. "**/*.md"' },
      text: { type: 'string', description: 'Text to find in the files' },
      regex: { type: 'boolean', description: 'Treat text as a regular expression (default false)' },
      ignoreCase: {
        type: 'boolean',
        description: 'Ignore upper/lower case in text (default false)',
      },
      path: {
        type: 'string',
        description: 'Folder (or file) to search, relative to the workspace (default ".")',
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RESULTS,
        description: `Most results to return (default ${DEFAULT_MAX_RESULTS})`,
      },
    },
    additionalProperties: false,
  },
  annotations: { title: 'Search files', readOnlyHint: true, openWorldHint: false },
  async run(args, env) {
    const pattern = optionalString(args, 'pattern')
    const needle = optionalString(args, 'text')
    const regex = optionalBool(args, 'regex') ?? false
    const ignoreCase = optionalBool(args, 'ignoreCase') ?? false
    const max = optionalInt(args, 'maxResults', 1, MAX_RESULTS) ?? DEFAULT_MAX_RESULTS
    if (!pattern && !needle) {
      throw new ToolError('Give a pattern (a glob such as "**/*.ts"), a text to find, or both.')
    }
    const ws = await openWorkspace(env.workspace)
    const start = await existing(ws, optionalString(args, 'path') ?? '.')
    const matchPath = pattern ? compilePattern(pattern) : null
    let matchLine: LineMatcher | null = null
    try {
      if (needle !== undefined && needle !== '') matchLine = lineMatcher(needle, regex, ignoreCase)
      return await search(ws, start, env, max, matchPath, matchLine, { pattern, needle })
    } finally {
      matchPath?.dispose()
      matchLine?.dispose()
    }
  },
}

async function search(
  ws: Workspace,
  start: ResolvedPath,
  env: ToolEnv,
  max: number,
  matchPath: GlobMatcher | null,
  matchLine: LineMatcher | null,
  q: { pattern: string | undefined; needle: string | undefined },
): Promise<ToolOutcome> {
  const stats: Stats = { scanned: 0, tooBig: 0, binary: 0, walkCut: false }
  const results: string[] = []
  const startStat = await fsp.stat(start.real)
  const files = startStat.isDirectory() ? walk(ws, start.real, env, stats) : single(start.real)
  for await (const file of files) {
    if (results.length >= max) break
    const relToStart = startStat.isDirectory()
      ? path.relative(start.real, file).split(path.sep).join('/')
      : path.basename(file)
    if (matchPath && !matchPath(relToStart)) continue
    const rel = relativeTo(ws, file)
    if (!matchLine) {
      results.push(rel)
      continue
    }
    await searchFile(ws, file, rel, matchLine.test, max, results, stats, env)
  }
  return text(report(results, max, stats, env, { ...q, where: start.rel }))
}

interface LineMatcher {
  test(line: string): boolean
  dispose(): void
}

interface Stats {
  scanned: number
  tooBig: number
  binary: number
  walkCut: boolean
}

function compilePattern(pattern: string): GlobMatcher {
  if (path.isAbsolute(pattern) || /^[A-Za-z]:[\\/]/.test(pattern)) {
    throw new ToolError(
      `The pattern "${pattern}" is an absolute path. Patterns are matched against paths relative ` +
        'to the search folder: pass the folder as path and a relative pattern such as "**/*.ts".',
    )
  }
  try {
    return compileGlob(pattern)
  } catch (e) {
    throw new ToolError(`The pattern "${pattern}" is not a valid glob: ${(e as Error).message}`)
  }
}

function lineMatcher(needle: string, regex: boolean, ignoreCase: boolean): LineMatcher {
  if (regex) {
    let re: LinearRegExp
    try {
      re = linearRegExp(needle, ignoreCase ? 'i' : '')
    } catch (e) {
      throw new ToolError(
        `The text "${needle}" is not a valid regular expression here (${(e as Error).message}). ` +
          'Expressions run on RE2: no lookarounds (?=…) (?<=…) and no backreferences \\1. ' +
          'Fix it, or set regex to false to search for the plain text.',
      )
    }
    return {
      test: (line) =>
        re.test(line.length > MAX_TESTED_CHARS ? line.slice(0, MAX_TESTED_CHARS) : line),
      dispose: () => re.dispose(),
    }
  }
  const nothing = (): void => {}
  if (ignoreCase) {
    const lower = needle.toLowerCase()
    return { test: (line) => line.toLowerCase().includes(lower), dispose: nothing }
  }
  return { test: (line) => line.includes(needle), dispose: nothing }
}

async function* single(file: string): AsyncGenerator<string> {
  yield file
}

/** Files under `dir` in name order, depth first (see the header for what is skipped). */
async function* walk(
  ws: Workspace,
  dir: string,
  env: ToolEnv,
  stats: Stats,
): AsyncGenerator<string> {
  if (env.ctx.signal.aborted) throw env.ctx.signal.reason
  let entries
  try {
    entries = await readDirInside(ws, dir)
  } catch {
    return // unreadable folder: skip it
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of entries) {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) {
      if (SKIPPED_DIRS.has(e.name)) continue
      yield* walk(ws, full, env, stats)
    } else if (e.isFile() || (e.isSymbolicLink() && (await isFileInside(ws, full)))) {
      if (stats.scanned >= MAX_FILES_SCANNED) {
        stats.walkCut = true
        return
      }
      stats.scanned++
      yield full
    }
    if (stats.walkCut) return
  }
}

async function isFileInside(ws: Workspace, link: string): Promise<boolean> {
  try {
    const real = await fsp.realpath(link)
    return isInside(ws, real) && (await fsp.stat(real)).isFile()
  } catch {
    return false
  }
}

async function searchFile(
  ws: Workspace,
  file: string,
  rel: string,
  match: (line: string) => boolean,
  max: number,
  results: string[],
  stats: Stats,
  env: ToolEnv,
): Promise<void> {
  let buf: Buffer
  try {
    const read = await readFileInside(ws, await fsp.realpath(file), env.limits.maxFileBytes)
    if ('tooBig' in read) {
      stats.tooBig++
      return
    }
    buf = read.buf
  } catch {
    return
  }
  if (looksBinary(buf)) {
    stats.binary++
    return
  }
  const lines = buf.toString('utf8').split(/\r?\n/)
  let turn = performance.now()
  for (let i = 0; i < lines.length && results.length < max; i++) {
    if (performance.now() - turn > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      if (env.ctx.signal.aborted) throw env.ctx.signal.reason
      turn = performance.now()
    }
    const line = lines[i]!
    if (!match(line)) continue
    const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line
    results.push(`${rel}:${i + 1}: ${shown.trim()}`)
  }
}

function report(
  results: string[],
  max: number,
  stats: Stats,
  env: ToolEnv,
  q: { pattern: string | undefined; needle: string | undefined; where: string },
): string {
  const what = [
    q.needle ? `text "${q.needle}"` : null,
    q.pattern ? `files matching ${q.pattern}` : null,
  ]
    .filter(Boolean)
    .join(' in ')
  const notes: string[] = []
  if (results.length >= max) {
    notes.push(`stopped at ${max} results; narrow the search (path, pattern) or raise maxResults`)
  }
  if (stats.walkCut)
    notes.push(`stopped after looking at ${MAX_FILES_SCANNED} files; search a subfolder`)
  if (stats.tooBig > 0) {
    notes.push(`${stats.tooBig} file(s) above ${formatBytes(env.limits.maxFileBytes)} not searched`)
  }
  if (stats.binary > 0) notes.push(`${stats.binary} binary file(s) skipped`)
  const tail = notes.length > 0 ? `\n[${notes.join('; ')}]` : ''
  if (results.length === 0) {
    return `No results for ${what} under ${q.where === '.' ? 'the workspace' : q.where} (${stats.scanned} files looked at).${tail}`
  }
  return `${results.join('\n')}${tail}`
}
