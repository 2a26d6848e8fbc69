/** Types of scripts/electronegativity.mjs, for the tests. */
export interface Finding {
  check: string
  file: string
  line: number
  sample: string
  severity: string
  confidence: string
  description: string
}
export interface AllowlistEntry {
  check: string
  file: string
  match?: string
  reason: string
}
export const ALLOWLIST: string
export const EXCLUDED_CHECKS: string[]
export function stage(outDir: string, dest: string): void
export function toFinding(issue: unknown): Finding
export function validateAllowlist(list: unknown): AllowlistEntry[]
export function explains(entry: AllowlistEntry, finding: Finding): boolean
export function compare(
  findings: Finding[],
  allowlist: AllowlistEntry[],
): {
  explained: { finding: Finding; reason: string }[]
  unexplained: Finding[]
  unused: AllowlistEntry[]
}
export function scan(dir: string): Promise<{ findings: Finding[]; errors: unknown[] }>
export function main(): Promise<number>
