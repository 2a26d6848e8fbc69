/**
 * The scripted speech-to-text MCP server (`tests/fixtures/mcp/stt-server.mjs`) for tests:
 * its script written to a file, its configuration, and the calls it recorded.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StdioServerConfig } from '../../src-main/core/mcp-ports'
import { fixture, nodeServer } from './mcp'

export type SttStep =
  | { partial: string }
  | { final: string }
  | { waitPolls: number }
  | { delayMs: number }
  | { waitFile: string }
  | { crash: true }
  | { close: true }

export interface SttScript {
  /** stt_stop_session never answers (a hung server) */
  hangOnStop?: boolean
  shape?: 'structured' | 'text'
  steps: SttStep[]
}

export interface SttCall {
  call: 'start' | 'poll' | 'stop'
  session_id: string
  source?: string
  cursor?: unknown
}

export interface SttServer {
  config: StdioServerConfig
  /** every call the server received so far, in order (across restarts) */
  calls(): SttCall[]
}

/** Writes the script into `dir` and returns the server's configuration and its record. */
export function sttServer(dir: string, script: SttScript, name = 'stt'): SttServer {
  const scriptFile = join(dir, `${name}-script.json`)
  const recordFile = join(dir, `${name}-calls.jsonl`)
  writeFileSync(scriptFile, JSON.stringify(script))
  return {
    config: nodeServer(fixture('stt-server.mjs'), [scriptFile], { STT_RECORD: recordFile }),
    calls: () =>
      existsSync(recordFile)
        ? readFileSync(recordFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as SttCall)
        : [],
  }
}
