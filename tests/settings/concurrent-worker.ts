/**
 * A child process for the concurrency test: waits for the `go` file, then appends
 * `count` rules to `alwaysAllow`, each in its own locked read-modify-write.
 * Usage: node --import tsx concurrent-worker.ts <dataDir> <name> <count>
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Settings } from '../../src-main/adapters/settings/schema'
import { openSettings } from '../../src-main/adapters/settings/settings-store'

const [dir = '', name = '', count = '0'] = process.argv.slice(2)
const store = openSettings(dir)
fs.writeFileSync(path.join(dir, `ready-${name}`), '')
const go = path.join(dir, 'go')
const until = Date.now() + 20_000
while (!fs.existsSync(go) && Date.now() < until) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5)
}
for (let i = 0; i < Number(count); i++) {
  // odd workers wait for the lock asynchronously, even ones synchronously (the CLI's way)
  const mutate = (s: Settings): void => {
    s.alwaysAllow.push({ server: name, tool: `t${i}`, fingerprint: 'f', createdAt: Date.now() })
  }
  if (Number(name.replace(/\D/g, '') || 0) % 2 === 1) await store.update(mutate)
  else store.updateSync(mutate)
}
