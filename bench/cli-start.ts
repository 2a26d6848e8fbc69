/**
 * How long the `cairn` command takes to start, against a bare `node -e 0` on the same
 * machine at the same moment: `--version`, and `sessions list` over an empty data
 * directory. Wall-clock per run (each is a new process), median and p95 of `RUNS`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const RUNS = 15
const CLI = join(process.cwd(), 'out', 'cli', 'index.js')

function time(args: string[], env: NodeJS.ProcessEnv = process.env): number[] {
  const out: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`)
    out.push(performance.now() - t0)
  }
  return out.sort((a, b) => a - b)
}

const pct = (xs: number[], p: number): number =>
  xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!

export interface CliStart {
  bare: number[]
  version: number[]
  sessionsList: number[]
}

export function benchCliStart(): CliStart {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-'))
  try {
    const env = { ...process.env, CAIRN_DATA_DIR: join(dir, 'data') }
    time([CLI, 'sessions', 'list'], env) // creates the database once
    return {
      bare: time(['-e', '0']),
      version: time([CLI, '--version']),
      sessionsList: time([CLI, 'sessions', 'list'], env),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printCliStart(r: CliStart, verdict: (ok: boolean) => string): void {
  const line = (name: string, xs: number[], target?: number): string =>
    `   ${name.padEnd(18)} median ${pct(xs, 50).toFixed(0).padStart(4)} ms  p95 ${pct(xs, 95)
      .toFixed(0)
      .padStart(4)} ms` +
    (target
      ? `  (${(pct(xs, 50) / pct(r.bare, 50)).toFixed(2)}× bare node)  target ≤ ${target} ms  ${verdict(pct(xs, 50) <= target)}`
      : '')
  console.log(line('node -e 0', r.bare))
  console.log(line('cairn --version', r.version, 150))
  console.log(line('cairn sessions list', r.sessionsList, 300))
}
