/** Types of eslint/import-layers.js, for the tests. */
import type { ESLint } from 'eslint'

export interface ImportTarget {
  kind: 'path' | 'module'
  name: string
}
export function importTarget(file: string, source: string): ImportTarget
declare const plugin: ESLint.Plugin
export default plugin
