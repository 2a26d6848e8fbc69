import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import { useTempDirs } from './temp-dirs'

const tempDir = useTempDirs()
const worker = path.join(import.meta.dirname, 'concurrent-worker.ts')

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stderr }))
  })
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('settings shared by several processes', () => {
  it('loses no update when processes update concurrently', async () => {
    const dir = tempDir()
    openSettings(dir)
    const names = ['p1', 'p2', 'p3', 'p4']
    const runs = names.map((n) => run([dir, n, '20']))
    await waitFor(() => names.every((n) => fs.existsSync(path.join(dir, `ready-${n}`))), 20_000)
    fs.writeFileSync(path.join(dir, 'go'), '')
    const results = await Promise.all(runs)
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 })

    const rules = openSettings(dir).get().alwaysAllow
    expect(rules).toHaveLength(80)
    for (const n of names) {
      const tools = rules.filter((r) => r.server === n).map((r) => r.tool)
      expect(tools).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}`))
    }
    expect(fs.readdirSync(dir).filter((f) => f.includes('.lock') || f.includes('tmp'))).toEqual([])
  }, 60_000)
})
