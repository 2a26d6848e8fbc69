/** Types of eslint/import-layers.js, for the tests. */
import type { ESLint } from 'eslint'

export function ownFolder(glob: string, file: string): string | null
declare const plugin: ESLint.Plugin
export default plugin
