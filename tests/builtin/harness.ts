/** Built-in tools over real temp folders: a workspace, and a folder outside it. */
import fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import type { ToolOutcome } from '../../src-main/core/ports'
import { BuiltinTools, type BuiltinToolsOptions } from '../../src-main/adapters/builtin-tools'

export interface CallResult {
  text: string
  isError: boolean
  outcome: ToolOutcome
}

export interface Harness {
  /** the workspace folder as configured (not created until a tool runs) */
  ws: string
  /** a folder next to the workspace, outside it */
  outside: string
  tools: BuiltinTools
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult>
  /** writes a file relative to the workspace, creating folders */
  put(rel: string, content: string | Buffer): string
  read(rel: string): string
}

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

export function tempDir(): string {
  // realpath: on macOS the temp folder is behind a symbolic link
  const d = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'cairn-builtin-')))
  dirs.push(d)
  return d
}

export function harness(opts: Partial<BuiltinToolsOptions> = {}): Harness {
  const base = tempDir()
  const ws = path.join(base, 'ws')
  const outside = path.join(base, 'outside')
  fs.mkdirSync(outside)
  const tools = new BuiltinTools({ workspace: () => ws, ...opts })
  return {
    ws,
    outside,
    tools,
    async call(tool, args, signal) {
      const outcome = await tools.call(tool, args, {
        signal: signal ?? new AbortController().signal,
        sessionId: 'session-1',
        toolCallId: 'call-1',
      })
      const text = outcome.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
      return { text, isError: outcome.isError === true, outcome }
    },
    put(rel, content) {
      const p = path.join(ws, rel)
      fs.mkdirSync(path.dirname(p), { recursive: true })
      fs.writeFileSync(p, content)
      return p
    },
    read(rel) {
      return fs.readFileSync(path.join(ws, rel), 'utf8')
    },
  }
}

export const posix = process.platform !== 'win32'
