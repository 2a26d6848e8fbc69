/**
 * The data directory is private to its owner: made 700, its files 600 (the database and its
 * WAL and SHM, settings with MCP headers and environment, secrets, turn logs), and narrowed
 * back on start when something made them readable by others. POSIX only.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import { openAppServices } from '../../src-main/services/host/app-services'
import { request } from '../logs/fixtures'
import { useTempDirs } from '../settings/temp-dirs'

const tempDir = useTempDirs()
const mode = (p: string): number => fs.statSync(p).mode & 0o777
const posix = process.platform !== 'win32'

describe.runIf(posix)('data directory permissions', () => {
  it('creates the folder 700 and every file 600, whatever the umask', async () => {
    const old = process.umask(0o022)
    try {
      const dir = path.join(tempDir(), 'data')
      const app = openAppServices(dir)
      await app.settings.update((s) => {
        s.mcpServers = { x: { url: 'http://127.0.0.1:9/', headers: { Authorization: 'Bearer t' } } }
      })
      app.secrets.setApiKey('p', 'sk-secret')
      app.store.createSession({ title: 'private' })
      expect(mode(dir)).toBe(0o700)
      for (const f of ['cairn.db', 'cairn.db-wal', 'cairn.db-shm', 'settings.json', 'secrets.json'])
        expect([f, mode(path.join(dir, f))]).toEqual([f, 0o600])
      const logger = new FileTurnLogger(dir)
      const h = await logger.begin('s1', request())
      expect(h.number).toBe(1)
      const logDir = path.join(dir, 'logs', 'sessions', 's1')
      for (const f of fs.readdirSync(logDir))
        expect([f, mode(path.join(logDir, f))]).toEqual([f, 0o600])
      app.close()
    } finally {
      process.umask(old)
    }
  })

  it('narrows what others could read back on start, with a warning, and leaves other files alone', () => {
    const dir = path.join(tempDir(), 'data')
    openAppServices(dir).close()
    const logDir = path.join(dir, 'logs', 'sessions', 's1')
    fs.mkdirSync(logDir, { recursive: true })
    fs.writeFileSync(path.join(logDir, 'turn-001-request.json'), '{}')
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not ours')
    fs.symlinkSync(path.join(dir, 'notes.txt'), path.join(dir, 'link'))
    fs.chmodSync(dir, 0o755)
    for (const f of ['cairn.db', 'settings.json', 'notes.txt'])
      fs.chmodSync(path.join(dir, f), 0o644)
    for (const d of ['logs', 'logs/sessions', 'logs/sessions/s1'])
      fs.chmodSync(path.join(dir, d), 0o755)
    fs.chmodSync(path.join(logDir, 'turn-001-request.json'), 0o664)

    const warnings: string[] = []
    openAppServices(dir, { onWarning: (m) => warnings.push(m) }).close()
    expect(mode(dir)).toBe(0o700)
    expect(mode(path.join(dir, 'cairn.db'))).toBe(0o600)
    expect(mode(path.join(dir, 'settings.json'))).toBe(0o600)
    expect(mode(path.join(dir, 'logs', 'sessions', 's1'))).toBe(0o700)
    expect(mode(path.join(logDir, 'turn-001-request.json'))).toBe(0o600)
    expect(mode(path.join(dir, 'notes.txt'))).toBe(0o644)
    expect(warnings.join('\n')).toMatch(/could be read by other users; they are now private/)
    // it names what it narrowed: the folder itself, then paths inside it
    expect(warnings.join('\n')).toMatch(
      /files and folders in .* \(the folder itself, .+ and \d+ more\)/,
    )

    const quiet: string[] = []
    openAppServices(dir, { onWarning: (m) => quiet.push(m) }).close()
    expect(quiet.join('\n')).not.toMatch(/other users/)
  })

  it("makes the turn logs' folders 700, so the next start has nothing to narrow and says nothing", async () => {
    // found by `npm run try:servers -- --cli`: every cairn command after one that started a
    // session warned that the new session's log folders "could be read by other users"
    const old = process.umask(0o022)
    try {
      const dir = path.join(tempDir(), 'data')
      openAppServices(dir).close()
      const logger = new FileTurnLogger(dir)
      const h = await logger.begin('s1', request())
      expect(h.number).toBe(1)
      for (const d of ['logs', 'logs/sessions', 'logs/sessions/s1'])
        expect([d, mode(path.join(dir, d))]).toEqual([d, 0o700])
      const warnings: string[] = []
      openAppServices(dir, { onWarning: (m) => warnings.push(m) }).close()
      expect(warnings).toEqual([])
    } finally {
      process.umask(old)
    }
  })
})
