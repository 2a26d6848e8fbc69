// @ts-check
/**
 * `layers/no-cycle`: an import that leads, through the project's other files, back to the
 * file itself is reported with the whole loop. Type imports count too: two files that need
 * each other, even for types, cannot be understood or moved apart.
 *
 * The file being linted is read from its syntax tree (what the editor holds); the files it
 * reaches are read from disk with TypeScript's import scanner (`ts.preProcessFile`, no full
 * parse), each kept until its modification time changes (looked at again at most every
 * two seconds: one `eslint .` reads each file once). Relative imports are resolved as the
 * bundler does (`x`, `x.ts`, `x.tsx`, `x/index.ts`…); packages are not followed.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { importTarget, importVisitors, projectFile } from './imports.js'

const SUFFIXES = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.tsx']
const SCRIPT = /\.(m|c)?[jt]sx?$/
/** how long what was read from disk is trusted without looking again */
const FRESH_MS = 2000

/** @type {Map<string, { mtimeMs: number, checkedAt: number, imports: string[] }>} a file's project imports */
const scanned = new Map()
/** @type {Map<string, { checkedAt: number, file: string | null }>} an import (`from` and source) resolved */
const resolved = new Map()

/**
 * The project file an import names (relative to `cwd`, with `/`), or null for a package or a
 * file that does not exist.
 * @param {string} cwd
 * @param {string} from
 * @param {string} source
 */
function resolveImport(cwd, from, source) {
  const target = importTarget(from, source)
  if (target.kind !== 'path') return null
  const key = `${cwd}\n${target.name}`
  const known = resolved.get(key)
  const now = Date.now()
  if (known && now - known.checkedAt < FRESH_MS) return known.file
  let file = null
  for (const suffix of SUFFIXES) {
    const name = target.name + suffix
    if (statSync(join(cwd, name), { throwIfNoEntry: false })?.isFile()) {
      file = name
      break
    }
  }
  resolved.set(key, { checkedAt: now, file })
  return file
}

/**
 * The project files `file` imports, read from disk.
 * @param {string} cwd
 * @param {string} file
 * @returns {string[]}
 */
function importsOf(cwd, file) {
  if (!SCRIPT.test(file)) return []
  const key = `${cwd}\n${file}`
  const known = scanned.get(key)
  const now = Date.now()
  if (known && now - known.checkedAt < FRESH_MS) return known.imports
  const path = join(cwd, file)
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) return []
  if (known && known.mtimeMs === stat.mtimeMs) {
    known.checkedAt = now
    return known.imports
  }
  const found = ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles
  const imports = [
    ...new Set(found.map((f) => resolveImport(cwd, file, f.fileName)).filter((f) => f !== null)),
  ]
  scanned.set(key, { mtimeMs: stat.mtimeMs, checkedAt: now, imports })
  return imports
}

/**
 * The shortest way from `start` back to `file` (`start` first, `file` last), or null.
 * `dead` holds files known not to lead to `file`; this search adds those it proves so.
 * @param {string} cwd
 * @param {string} start
 * @param {string} file
 * @param {Set<string>} dead
 */
function pathBack(cwd, start, file, dead) {
  if (dead.has(start)) return null
  /** @type {Map<string, string | null>} each file reached, and the one it was reached from */
  const from = new Map([[start, null]])
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    const at = /** @type {string} */ (queue[i])
    for (const next of importsOf(cwd, at)) {
      if (next === file) {
        /** @type {string[]} */
        const path = [file]
        for (
          let step = /** @type {string | null} */ (at);
          step !== null;
          step = from.get(step) ?? null
        )
          path.unshift(step)
        return path
      }
      if (from.has(next) || dead.has(next)) continue
      from.set(next, at)
      queue.push(next)
    }
  }
  for (const reached of from.keys()) dead.add(reached)
  return null
}

/** @type {import('eslint').Rule.RuleModule} */
export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import leads back to the file that makes it.' },
    schema: [
      {
        type: 'object',
        properties: { docs: { type: 'string' } },
        required: ['docs'],
        additionalProperties: false,
      },
    ],
    messages: {
      cycle:
        'Import cycle: {{loop}}. Move what both sides need into one of them, or into a third file both import. See {{docs}}',
    },
  },
  create(context) {
    const { docs } = context.options[0]
    const cwd = context.cwd
    const file = projectFile(context)
    /** @type {Set<string>} */
    const dead = new Set()
    /** @type {Set<string>} */
    const seen = new Set()
    return importVisitors((node, source) => {
      const target = resolveImport(cwd, file, source.value)
      if (target === null || seen.has(target)) return
      seen.add(target)
      const path = target === file ? [file] : pathBack(cwd, target, file, dead)
      if (path) {
        const loop = [file, ...path].join(' → ')
        context.report({ node, messageId: 'cycle', data: { loop, docs } })
      }
    })
  },
}
