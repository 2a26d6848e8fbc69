import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const WORKER = path.join(import.meta.dirname, 'signal-worker.ts')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  lines: string[]
  stderr: string
}

/** Starts the worker, sends `signal` once it has reported, and collects what it said. */
function runWorker(signal: NodeJS.Signals): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-signals-'))
  dirs.push(dataDir)
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  let sent = false
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
    // the first line is the report: the worker's handlers are in place
    if (!sent && stdout.includes('\n')) {
      sent = true
      child.kill(signal)
    }
  })
  return new Promise((resolve) =>
    child.on('close', (code, sig) =>
      resolve({ code, signal: sig, lines: stdout.trim().split('\n'), stderr }),
    ),
  )
}

describe('signals in the CLI and browser mode', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`no library hooks ${signal}: the host's own handler runs and exits ${code}`, async () => {
      const r = await runWorker(signal)
      expect(r.stderr).toBe('')
      const counts = JSON.parse(r.lines[0] ?? '{}') as Record<string, number>
      // nothing loaded by the engine listens for SIGINT or SIGTERM…
      expect(counts).toEqual({ before: 0, installed: 2, released: 0 })
      // …so the signal reaches our handler, which stops cleanly, instead of killing the process
      expect(r.lines[1]).toBe(`stopping on ${signal}`)
      expect(r.signal).toBeNull()
      expect(r.code).toBe(code)
    })
  }
})
