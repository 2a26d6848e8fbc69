import { builtinModules } from 'node:module'
import type { UserConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies),
].map((d) => new RegExp(`^${d.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}(/.*)?$`))

/** A Node program (the CLI, the browser-mode host): one ESM file, dependencies from node_modules. */
export function nodeBundle(
  entry: string,
  outDir: string,
  opts: { shebang?: boolean } = {},
): UserConfig {
  return {
    define: { __CAIRN_VERSION__: JSON.stringify(pkg.version) },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      minify: false,
      rollupOptions: {
        external,
        output: {
          format: 'es',
          entryFileNames: 'index.js',
          ...(opts.shebang ? { banner: '#!/usr/bin/env node' } : {}),
        },
      },
    },
    ssr: { target: 'node' },
  }
}
