/**
 * One turn per session across processes: a lease in SQLite names the process that runs a
 * session's turn; another process is refused while it lives and takes over once it is gone
 * (or its heartbeat is stale).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { SessionLeases } from '../../src-main/adapters/sqlite/session-leases'
import { useTempDirs } from '../settings/temp-dirs'
import { runCli } from '../support/cli'

const tempDir = useTempDirs()
const worker = path.join(import.meta.dirname, 'hold-lease-worker.ts')
const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
})

function holdInAnotherProcess(dataDir: string, sessionId: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, dataDir, sessionId], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('held\n')) resolve(child)
      else if (out.includes('busy')) reject(new Error(out))
    })
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)))
  })
}

describe('session leases', () => {
  it('refuses a second holder while the first holds it, then lets it in after release', () => {
    const dir = tempDir()
    const a = createSessionStore(dir)
    const b = createSessionStore(dir)
    const s = a.createSession({})
    const first = a.leases.acquire(s.id, 'web')
    expect(first.ok).toBe(true)
    const second = b.leases.acquire(s.id, 'cli')
    expect(second.ok).toBe(false)
    if (!second.ok) {
      expect(second.holder).toMatchObject({ pid: process.pid, kind: 'web', self: false })
      expect(SessionLeases.busyMessage(second.holder)).toMatch(
        /busy in another window \(browser mode, process \d+/,
      )
    }
    // the holder itself is refused too: one turn per session
    const again = a.leases.acquire(s.id, 'web')
    expect(again.ok === false && again.holder.self).toBe(true)
    if (first.ok) first.lease.release()
    const third = b.leases.acquire(s.id, 'cli')
    expect(third.ok).toBe(true)
    if (third.ok) third.lease.release()
    a.close()
    b.close()
  })

  it('takes over a lease whose heartbeat is stale, and the old holder learns it lost it', () => {
    const dir = tempDir()
    let now = 1_000_000
    const opts = { leases: { now: () => now, staleAfterMs: 30_000, heartbeatMs: 60_000 } }
    const first = createSessionStore(dir, opts)
    const second = createSessionStore(dir, opts)
    const s = first.createSession({})
    const held = first.leases.acquire(s.id, 'desktop')
    expect(held.ok).toBe(true)
    now += 20_000
    if (held.ok) expect(held.lease.renew()).toBe(true)
    now += 20_000
    expect(second.leases.acquire(s.id, 'cli').ok).toBe(false) // renewed 20 s ago
    now += 31_000
    const taken = second.leases.acquire(s.id, 'cli')
    expect(taken.ok).toBe(true)
    if (held.ok) expect(held.lease.renew()).toBe(false)
    first.close()
    second.close()
  })

  it('is held across processes, and taken over at once when the holding process dies', async () => {
    const dir = tempDir()
    const store = createSessionStore(dir)
    const s = store.createSession({})
    const child = await holdInAnotherProcess(dir, s.id)
    const refused = store.leases.acquire(s.id, 'desktop')
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.holder).toMatchObject({ pid: child.pid, kind: 'cli', self: false })
      expect(SessionLeases.busyMessage(refused.holder)).toMatch(/the cairn command line/)
    }
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
    const taken = store.leases.acquire(s.id, 'desktop')
    expect(taken.ok).toBe(true)
    if (taken.ok) taken.lease.release()
    store.close()
  }, 60_000)

  it('the cairn command says a session is busy in another window, and sends nothing', async () => {
    const dir = tempDir()
    const store = createSessionStore(dir)
    const s = store.createSession({})
    await holdInAnotherProcess(dir, s.id)
    const res = await runCli(['--data-dir', dir, '--session', s.id, 'hello'], {
      env: { CAIRN_BASE_URL: 'http://127.0.0.1:9/v1', CAIRN_MODEL: 'm' },
    })
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/busy in another window \(the cairn command line, process \d+/)
    expect(store.listMessages(s.id)).toEqual([])
    store.close()
  }, 60_000)
})
