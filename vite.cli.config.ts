import { defineConfig } from 'vite'
import { nodeBundle } from './vite.node-bundle.ts'

/** The `cairn` CLI → out/cli/index.js */
export default defineConfig(nodeBundle('src-main/cli/index.ts', 'out/cli', { shebang: true }))
