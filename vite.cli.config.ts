import { defineConfig } from 'vite'
import { builtinModules } from 'node:module'
import pkg from './package.json' with { type: 'json' }

const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
].map((d) => new RegExp(`^${d.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/.*)?$`))

/** The `cairn` CLI: one ESM file for Node, dependencies loaded from node_modules. */
export default defineConfig({
  define: { __CAIRN_VERSION__: JSON.stringify(pkg.version) },
  build: {
    ssr: 'src-main/cli/index.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      external,
      output: { format: 'es', entryFileNames: 'index.js', banner: '#!/usr/bin/env node' },
    },
  },
  ssr: { target: 'node' },
})
