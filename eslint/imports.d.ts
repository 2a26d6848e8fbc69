/** Types of eslint/imports.js, for the tests. */
export interface ImportTarget {
  kind: 'path' | 'module'
  name: string
}
export function importTarget(file: string, source: string): ImportTarget
