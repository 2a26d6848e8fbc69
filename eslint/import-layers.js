// @ts-check
/**
 * `layers/allowed-imports`: each folder of the code lists what it may import, and
 * everything else is reported (an allow-list per layer, the idea of VS Code's
 * `code-import-patterns`). eslint.config.js gives each layer its options:
 *
 *   { layer: 'src-main/core', why: '…', allow: [...patterns], allowTypes: [...patterns] }
 *
 * A pattern that starts with `/` is a path in the project (a picomatch glob, without the
 * file's extension): it matches relative imports, resolved from the importing file.
 * Any other pattern is a glob over package specifiers (`zod`, `openai/**`, `node:crypto`);
 * a built-in module written without `node:` is matched as `node:<name>`. `allowTypes`
 * lists what may be imported with `import type` only (or `export type`, or an import
 * whose every name is `type`). A `?query` suffix (vite's `?worker`, `?url`) is ignored.
 * `own` (a glob over folders, like `src-renderer/src/features/*`) lets a file import anything
 * in the one folder matching it that holds the file: a feature imports itself, not its peers.
 */
import { isBuiltin } from 'node:module'
import { posix, relative, sep } from 'node:path'
import picomatch from 'picomatch'

/** @param {string[]} patterns */
function matcher(patterns) {
  const paths = patterns.filter((p) => p.startsWith('/')).map((p) => p.slice(1))
  const modules = patterns.filter((p) => !p.startsWith('/'))
  const inProject = paths.length ? picomatch(paths, { dot: true }) : () => false
  const isModule = modules.length ? picomatch(modules, { dot: true }) : () => false
  /** @param {{ kind: 'path' | 'module', name: string }} target */
  return (target) => (target.kind === 'path' ? inProject(target.name) : isModule(target.name))
}

/**
 * The folder matching `glob` (a glob over folders) that holds `file`, or null.
 * @param {string} glob
 * @param {string} file
 */
export function ownFolder(glob, file) {
  const depth = glob.split('/').length
  const parts = file.split('/')
  if (parts.length <= depth) return null
  const folder = parts.slice(0, depth).join('/')
  return picomatch.isMatch(folder, glob, { dot: true }) ? folder : null
}

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

/** @param {any} node an ImportDeclaration or Export…Declaration */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true
  const specifiers = node.specifiers ?? []
  return (
    specifiers.length > 0 &&
    specifiers.every((/** @type {any} */ s) => s.importKind === 'type' || s.exportKind === 'type')
  )
}

/** @type {import('eslint').Rule.RuleModule} */
const allowedImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer imports only what its allow-list names.' },
    schema: [
      {
        type: 'object',
        properties: {
          layer: { type: 'string' },
          why: { type: 'string' },
          allow: { type: 'array', items: { type: 'string' } },
          allowTypes: { type: 'array', items: { type: 'string' } },
          own: { type: 'string' },
        },
        required: ['layer', 'allow'],
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: "{{layer}} may not import '{{source}}': {{why}}",
      typesOnly: "{{layer}} may import '{{source}}' with `import type` only: {{why}}",
    },
  },
  create(context) {
    const { layer, why = '', allow, allowTypes = [], own } = context.options[0]
    const file = relative(context.cwd, context.filename).split(sep).join('/')
    const home = own ? ownFolder(own, file) : null
    const allowed = matcher(home ? [...allow, `/${home}/**`] : allow)
    const typesAllowed = matcher(allowTypes)
    /**
     * @param {any} node
     * @param {any} sourceNode
     * @param {boolean} typeOnly
     */
    const check = (node, sourceNode, typeOnly) => {
      if (!sourceNode || typeof sourceNode.value !== 'string') return
      const target = importTarget(file, sourceNode.value)
      if (allowed(target)) return
      if (typesAllowed(target)) {
        if (typeOnly) return
        context.report({
          node,
          messageId: 'typesOnly',
          data: { layer, source: sourceNode.value, why },
        })
        return
      }
      context.report({
        node,
        messageId: 'forbidden',
        data: { layer, source: sourceNode.value, why },
      })
    }
    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ImportExpression: (node) => check(node, node.source, false),
      /** @param {any} node */
      TSImportEqualsDeclaration: (node) =>
        check(node, node.moduleReference?.expression, node.importKind === 'type'),
      /** @param {any} node `typeof import('x')` in a type */
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument, true),
      CallExpression: (node) => {
        const callee = /** @type {any} */ (node.callee)
        if (
          callee.type === 'Identifier' &&
          callee.name === 'require' &&
          node.arguments.length === 1
        )
          check(node, node.arguments[0], false)
      },
    }
  },
}

export default { rules: { 'allowed-imports': allowedImports } }
