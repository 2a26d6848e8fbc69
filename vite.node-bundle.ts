import { builtinModules } from 'node:module'
import type { UserConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
].map((d) => new RegExp(`^${d.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/.*)?$`))

/**
 * A Node program (the CLI, the browser-mode host): `index.js`, and beside it
 * `local-runtime.js` (the local model runtime's process, which the program starts) and
 * `attachment-worker.js` (the worker that extracts a document's text), `import-worker.js`
 * (the worker that imports an export file) and `knowledge-worker.js` (the worker that
 * indexes the knowledge sources), ESM,
 * dependencies from node_modules.
 */
export function nodeBundle(
  entry: string,
  outDir: string,
  opts: { shebang?: boolean } = {},
): UserConfig {
  return {
    define: { __CAIRN_VERSION__: JSON.stringify(pkg.version) },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      minify: false,
      rollupOptions: {
        input: {
          index: entry,
          'local-runtime': 'src-main/local-runtime/main.ts',
          // the document text extraction's worker thread (adapters/extract/extract.ts)
          'attachment-worker': 'src-main/adapters/extract/worker.ts',
          // the import's worker thread (adapters/import/run-import.ts)
          'import-worker': 'src-main/adapters/import/worker.ts',
          // the knowledge index's worker thread (adapters/knowledge/knowledge-index.ts)
          'knowledge-worker': 'src-main/adapters/knowledge/worker.ts',
        },
        external,
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          ...(opts.shebang ? { banner: '#!/usr/bin/env node' } : {}),
        },
      },
    },
    ssr: { target: 'node' },
  }
}
