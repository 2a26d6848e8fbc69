/**
 * Builds the CLI bundle once before the tests, so that CLI tests run the real
 * `out/cli/index.js` that users run, not the sources.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, statSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p))
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(p).mtimeMs)
  }
  return newest
}

export default function setup(): void {
  if (process.env['CAIRN_SKIP_CLI_BUILD'] === '1') return
  const root = process.cwd()
  const cli = join(root, 'out', 'cli', 'index.js')
  const stale =
    !existsSync(cli) ||
    statSync(cli).mtimeMs <
      Math.max(newestMtime(join(root, 'src-main')), newestMtime(join(root, 'src-preload')))
  if (stale) {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        'vite.cli.config.ts',
        '--logLevel',
        'warn',
      ],
      {
        cwd: root,
        stdio: 'inherit',
      },
    )
  }
}
