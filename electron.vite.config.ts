import { resolve as resolvePath } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const root = fileURLToPath(new URL('.', import.meta.url))
const resolve = (...p: string[]): string => resolvePath(root, ...p)

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src-main/index.ts'),
          // the local model runtime, started in Electron's utility process
          'local-runtime': resolve('src-main/local-runtime/main.ts'),
          // the worker thread that extracts a document's text (adapters/extract/extract.ts)
          'attachment-worker': resolve('src-main/adapters/extract/worker.ts'),
          // the worker thread that imports an export file (adapters/import/run-import.ts)
          'import-worker': resolve('src-main/adapters/import/worker.ts'),
          // the worker thread that indexes the knowledge sources (adapters/knowledge/)
          'knowledge-worker': resolve('src-main/adapters/knowledge/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload's require knows only electron (and a few Node modules): every
      // dependency it imports must be in the bundle, not left as a require().
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src-preload/index.ts') },
        // sandboxed preloads must be CommonJS
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src-renderer'),
    plugins: [react()],
    // the highlighter's worker is an ES module, so each language it loads is its own chunk
    worker: { format: 'es' },
    build: {
      outDir: resolve('out/renderer'),
      minify: true,
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
})
