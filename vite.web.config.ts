import { defineConfig } from 'vite'
import { nodeBundle } from './vite.node-bundle.ts'

/** The browser-mode host (`npm run web`) → out/web/index.js */
export default defineConfig(nodeBundle('src-main/web/index.ts', 'out/web'))
