/** Builds the renderer and the browser-mode host when they are missing or older than the sources. */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newest(dir: string): number {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

export default function globalSetup(): void {
  const root = process.cwd()
  const outputs = [
    join(root, 'out', 'web', 'index.js'),
    join(root, 'out', 'renderer', 'index.html'),
  ]
  const built = Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)))
  const sources = Math.max(
    newest(join(root, 'src-main')),
    newest(join(root, 'src-renderer')),
    newest(join(root, 'src-preload')),
  )
  if (built < sources) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
}
