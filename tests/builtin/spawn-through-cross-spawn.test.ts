/**
 * On Windows `npx` is `npx.cmd`, which Node refuses to spawn without a shell; cross-spawn
 * starts it safely. The two places that start user-configured programs (stdio MCP servers
 * and run_command's shell) must go through it, on every platform, so that the Windows path
 * is the one tested everywhere. This checks their imports, and that cross-spawn really runs
 * a program here.
 */
import fs from 'node:fs'
import path from 'node:path'
import crossSpawn from 'cross-spawn'
import { describe, expect, it } from 'vitest'

const SPAWNERS = [
  'src-main/adapters/mcp/stdio-transport.ts',
  'src-main/adapters/builtin-tools/spawn-group.ts',
]

describe('programs start through cross-spawn', () => {
  for (const file of SPAWNERS) {
    it(`${file} imports cross-spawn and not child_process' spawn`, () => {
      const source = fs.readFileSync(path.resolve(file), 'utf8')
      expect(source).toMatch(/^import crossSpawn from 'cross-spawn'$/m)
      const childProcessImports = source
        .split('\n')
        .filter((l) => /from 'node:child_process'/.test(l))
      for (const line of childProcessImports) expect(line).toMatch(/^import type /)
    })
  }

  it('cross-spawn starts a program and reports its exit code', async () => {
    const child = crossSpawn(process.execPath, ['-e', 'process.exit(7)'], { stdio: 'ignore' })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(7)
  })
})
