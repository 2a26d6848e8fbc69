/** Temp directories for these tests, removed after each test. */
import fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'

export function useTempDirs(): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })
  return () => {
    const d = fs.mkdtempSync(path.join(tmpdir(), 'cairn-test-'))
    dirs.push(d)
    return d
  }
}
