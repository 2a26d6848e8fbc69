/**
 * docs/architecture.md's test folder map is true: every folder under tests/ has its row,
 * no row names a folder that is gone, and every source path a row names is there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const doc = readFileSync('docs/architecture.md', 'utf8')
const start = doc.indexOf('| Test folder ')
const table = doc.slice(start, doc.indexOf('\n\n', start))
const rows = table
  .split('\n')
  .slice(2)
  .map((line) => line.split('|').map((c) => c.trim()))
  .map(([, folders = '', tests = '']) => ({
    folders: [...folders.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    named: [...tests.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
  }))

const testFolders = readdirSync('tests')
  .filter((name) => statSync(path.join('tests', name)).isDirectory())
  .map((name) => `tests/${name}/`)

/** a source path as the map writes it: from the root, from src-main or the renderer */
function found(named: string, testFolder: string): boolean {
  const bases = ['', 'src-main/', 'src-renderer/src/', testFolder]
  return bases.some((base) => {
    const full = base + named
    if (!full.includes('*')) return existsSync(full)
    const dir = path.dirname(full)
    const pattern = new RegExp(`^${path.basename(full).split('*').join('.*')}$`)
    return existsSync(dir) && readdirSync(dir).some((f) => pattern.test(f))
  })
}

/** route names (`mcp.*`) and words are not paths */
const isPath = (s: string): boolean => s.includes('/') || /\.(ts|tsx|css|yml|json|js)$/.test(s)

describe('the test folder map in docs/architecture.md', () => {
  it('has a row for every folder under tests/, and none for a folder that is not there', () => {
    expect(rows.length).toBeGreaterThan(10)
    expect(rows.flatMap((r) => r.folders).sort()).toEqual(testFolders.sort())
  })

  it('names source paths that are there', () => {
    const missing = rows.flatMap((r) =>
      r.named.filter(isPath).filter((named) => !found(named, r.folders[0] ?? '')),
    )
    expect(missing).toEqual([])
  })
})
