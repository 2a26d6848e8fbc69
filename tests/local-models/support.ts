/**
 * The local models' tests: the tiny real GGUF model (tests/fixtures/models), the built
 * runtime script (out/cli/local-runtime.js, built by the global setup with the CLI) and
 * settings that suit it: a 512-token context (answers end within it), one thread (the
 * test machine is shared) and no built-in tools (their definitions alone would not fit).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BuiltinTools } from '../../src-main/adapters/builtin-tools'
import { nodeRuntimeLauncher } from '../../src-main/services/providers/local-runtime'

export const TINY_MODEL = join(process.cwd(), 'tests', 'fixtures', 'models', 'stories260K.gguf')
export const TINY_SHA256 = '270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d'
export const RUNTIME_SCRIPT = join(process.cwd(), 'out', 'cli', 'local-runtime.js')

export const runtimeLauncher = () => nodeRuntimeLauncher(RUNTIME_SCRIPT)

/** every built-in tool's name (all switched off for the tiny model) */
export function builtinToolNames(): string[] {
  return new BuiltinTools({ workspace: () => process.cwd() }).tools().map((t) => t.name)
}

/** Writes the tiny model's settings into a data directory that has none yet. */
export function writeTinySettings(dataDir: string, over: Record<string, unknown> = {}): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({
      builtinTools: { disabled: builtinToolNames() },
      localModels: { idleMinutes: 10, threads: 1, maxContext: 512, hubURL: 'http://127.0.0.1:9' },
      ...over,
    }),
    { mode: 0o600 },
  )
}
