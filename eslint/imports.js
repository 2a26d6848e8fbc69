// @ts-check
/**
 * What a file imports, for the rules of the `layers` plugin (import-layers.js,
 * import-cycles.js): every way to import, and what each import names.
 */
import { isBuiltin } from 'node:module'
import { posix, relative, sep } from 'node:path'

/**
 * What an import names: a project path (relative imports, resolved from `file`) or a
 * module specifier. `file` is relative to the project, with `/`.
 * @param {string} file
 * @param {string} source
 */
export function importTarget(file, source) {
  const spec = source.replace(/\?.*$/, '')
  if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
    const name = posix.normalize(posix.join(posix.dirname(file), spec))
    return { kind: /** @type {const} */ ('path'), name: name.replace(/\.(m|c)?[jt]sx?$/, '') }
  }
  const name = !spec.startsWith('node:') && isBuiltin(spec) ? `node:${spec}` : spec
  return { kind: /** @type {const} */ ('module'), name }
}

/** The file being linted, relative to the project, with `/`. @param {import('eslint').Rule.RuleContext} context */
export function projectFile(context) {
  return relative(context.cwd, context.filename).split(sep).join('/')
}

/** @param {any} node an ImportDeclaration or Export…Declaration */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true
  const specifiers = node.specifiers ?? []
  return (
    specifiers.length > 0 &&
    specifiers.every((/** @type {any} */ s) => s.importKind === 'type' || s.exportKind === 'type')
  )
}

/**
 * The visitors that find every import of a file: import and export declarations, `import()`,
 * `require()`, `import x = require()` and `typeof import()` in types. `check` gets the node
 * to report, the string node naming what is imported, and whether only types come in.
 * @param {(node: any, source: any, typeOnly: boolean) => void} check
 * @returns {import('eslint').Rule.RuleListener}
 */
export function importVisitors(check) {
  /** @param {any} node @param {any} source @param {boolean} typeOnly */
  const found = (node, source, typeOnly) => {
    if (source && typeof source.value === 'string') check(node, source, typeOnly)
  }
  return {
    ImportDeclaration: (node) => found(node, node.source, isTypeOnly(node)),
    ExportNamedDeclaration: (node) => found(node, node.source, isTypeOnly(node)),
    ExportAllDeclaration: (node) => found(node, node.source, isTypeOnly(node)),
    ImportExpression: (node) => found(node, node.source, false),
    /** @param {any} node */
    TSImportEqualsDeclaration: (node) =>
      found(node, node.moduleReference?.expression, node.importKind === 'type'),
    /** @param {any} node `typeof import('x')` in a type */
    TSImportType: (node) => found(node, node.argument?.literal ?? node.argument, true),
    CallExpression: (node) => {
      const callee = /** @type {any} */ (node.callee)
      if (callee.type === 'Identifier' && callee.name === 'require' && node.arguments.length === 1)
        found(node, node.arguments[0], false)
    },
  }
}
