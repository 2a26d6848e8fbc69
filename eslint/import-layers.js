// @ts-check
/**
 * The `layers` plugin. `layers/allowed-imports`: each folder of the code lists what it may
 * import, and everything else is reported (an allow-list per layer, the idea of VS Code's
 * `code-import-patterns`). eslint/layers.js gives each layer its options:
 *
 *   { layer: 'src-main/core', why: '…', allow: [...patterns], allowTypes: [...patterns], docs: '…' }
 *
 * A pattern that starts with `/` is a path in the project (a picomatch glob, without the
 * file's extension): it matches relative imports, resolved from the importing file.
 * Any other pattern is a glob over package specifiers (`zod`, `openai/**`, `node:crypto`);
 * a built-in module written without `node:` is matched as `node:<name>`. `allowTypes`
 * lists what may be imported with `import type` only (or `export type`, or an import
 * whose every name is `type`). A `?query` suffix (vite's `?worker`, `?url`) is ignored.
 * `own` (a glob over folders, like `src-renderer/src/features/*`) lets a file import anything
 * in the one folder matching it that holds the file: a feature imports itself, not its peers.
 * `docs` is where the rule is explained; every message ends with it.
 *
 * `layers/in-a-layer` reports a file that no layer's `files` take in (VS Code's "Missing
 * definition in code-import-patterns for this file"), `layers/no-cycle` (import-cycles.js)
 * an import that leads back to its own file, and `layers/function-length` (function-length.js)
 * a function longer than its folder allows.
 */
import picomatch from 'picomatch'
import { noCycle } from './import-cycles.js'
import { importTarget, importVisitors, projectFile } from './imports.js'
import { functionLength } from './function-length.js'

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
          docs: { type: 'string' },
        },
        required: ['layer', 'allow', 'docs'],
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: "{{layer}} may not import '{{source}}': {{why}} See {{docs}}",
      typesOnly: "{{layer}} may import '{{source}}' with `import type` only: {{why}} See {{docs}}",
    },
  },
  create(context) {
    const { layer, why = '', allow, allowTypes = [], own, docs } = context.options[0]
    const file = projectFile(context)
    const home = own ? ownFolder(own, file) : null
    const allowed = matcher(home ? [...allow, `/${home}/**`] : allow)
    const typesAllowed = matcher(allowTypes)
    return importVisitors((node, sourceNode, typeOnly) => {
      const target = importTarget(file, sourceNode.value)
      if (allowed(target)) return
      const data = { layer, source: sourceNode.value, why, docs }
      if (!typesAllowed(target)) context.report({ node, messageId: 'forbidden', data })
      else if (!typeOnly) context.report({ node, messageId: 'typesOnly', data })
    })
  },
}

/** @type {Map<string, (file: string) => boolean>} */
const layerMatchers = new Map()
/** @param {string[]} globs */
function layerMatcher(globs) {
  const key = globs.join('\n')
  let match = layerMatchers.get(key)
  if (!match) layerMatchers.set(key, (match = picomatch(globs, { dot: true })))
  return match
}

/** @type {import('eslint').Rule.RuleModule} */
const inALayer = {
  meta: {
    type: 'problem',
    docs: { description: 'Every file of the code belongs to a layer.' },
    schema: [
      {
        type: 'object',
        properties: {
          layers: { type: 'array', items: { type: 'string' } },
          docs: { type: 'string' },
        },
        required: ['layers', 'docs'],
        additionalProperties: false,
      },
    ],
    messages: {
      missing:
        '{{file}} belongs to no layer, so nothing checks what it imports: move it into a layer’s folder, or add a layer for it in eslint/layers.js. See {{docs}}',
    },
  },
  create(context) {
    const { layers, docs } = context.options[0]
    const file = projectFile(context)
    if (layerMatcher(layers)(file)) return {}
    return {
      Program: (node) => context.report({ node, messageId: 'missing', data: { file, docs } }),
    }
  },
}

export default {
  rules: {
    'allowed-imports': allowedImports,
    'in-a-layer': inALayer,
    'no-cycle': noCycle,
    'function-length': functionLength,
  },
}
