/** Process groups: signalling, liveness (zombies count as dead), SIGTERM → SIGKILL escalation. */
import { spawn, spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import {
  isAlive,
  isGroupAlive,
  signalGroup,
  terminateGroup,
  waitUntil,
} from '../../src-main/adapters/mcp/process-tree'

const posix = process.platform !== 'win32'
const leaders: number[] = []

afterEach(() => {
  for (const pid of leaders.splice(0)) signalGroup(pid, 'SIGKILL')
})

/**
 * A detached group: a leader that spawns a grandchild and prints its pid. With
 * `ignoreTerm` both ignore SIGTERM.
 */
async function spawnGroup(ignoreTerm: boolean): Promise<{ pid: number; grandchild: number }> {
  const trap = ignoreTerm ? "process.on('SIGTERM', () => {});" : ''
  const grandchild = `${trap} setInterval(() => {}, 1000)`
  const leader =
    `${trap} const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' });` +
    "process.stdout.write(c.pid + '\\n'); setInterval(() => {}, 1000)"
  const child = spawn(process.execPath, ['-e', leader], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  leaders.push(child.pid!)
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('\n')) resolve(out.trim())
    })
    child.once('exit', () => reject(new Error('the group leader exited early')))
  })
  child.stdout.destroy()
  child.unref()
  return { pid: child.pid!, grandchild: Number(line) }
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''])
  return r.pid
}

describe('isAlive', () => {
  it('is true for this process and false for a finished one', () => {
    expect(isAlive(process.pid)).toBe(true)
    expect(isAlive(deadPid())).toBe(false)
  })

  it('never treats 0, 1 or negative pids as signalable', () => {
    expect(isAlive(0)).toBe(false)
    expect(isAlive(-1)).toBe(false)
    expect(signalGroup(0, 'SIGTERM')).toBe(false)
    expect(signalGroup(1, 'SIGTERM')).toBe(false)
    expect(signalGroup(-5, 'SIGTERM')).toBe(false)
    expect(isGroupAlive(1)).toBe(false)
  })

  it.runIf(process.platform === 'linux')('counts a zombie as dead', async () => {
    // the parent blocks synchronously, so it cannot reap its exited child: a zombie
    const script =
      "const c = require('node:child_process').spawn('true'); process.stdout.write(c.pid + '\\n');" +
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000)'
    const parent = spawn(process.execPath, ['-e', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    leaders.push(parent.pid!)
    const zombie = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
    )
    // wait until the child has exited but still exists (as a zombie)
    await waitUntil(() => !isAlive(zombie), 3000)
    let signalable = true
    try {
      process.kill(zombie, 0)
    } catch {
      signalable = false
    }
    expect(signalable).toBe(true) // kill(pid, 0) still succeeds for a zombie...
    expect(isAlive(zombie)).toBe(false) // ...but it is not alive
  })
})

describe.runIf(posix)('process groups', () => {
  it('signalGroup reaches the grandchild too', async () => {
    const g = await spawnGroup(false)
    expect(isAlive(g.pid) && isAlive(g.grandchild)).toBe(true)
    expect(isGroupAlive(g.pid)).toBe(true)
    expect(signalGroup(g.pid, 'SIGKILL')).toBe(true)
    expect(await waitUntil(() => !isAlive(g.pid) && !isAlive(g.grandchild), 3000)).toBe(true)
    expect(isGroupAlive(g.pid)).toBe(false)
  })

  it('terminateGroup ends a group that honours SIGTERM without waiting for the grace', async () => {
    const g = await spawnGroup(false)
    const started = Date.now()
    await terminateGroup(g.pid, { graceMs: 60_000 })
    // far less than the grace: it did not wait it out
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(isAlive(g.pid) || isAlive(g.grandchild)).toBe(false)
  })

  it('terminateGroup escalates to SIGKILL after the grace when SIGTERM is ignored', async () => {
    const g = await spawnGroup(true)
    const started = Date.now()
    await terminateGroup(g.pid, { graceMs: 300 })
    const elapsed = Date.now() - started
    expect(elapsed).toBeGreaterThanOrEqual(250)
    // the process ignores SIGTERM for ever: only SIGKILL ended the wait
    expect(elapsed).toBeLessThan(20_000)
    expect(isAlive(g.pid)).toBe(false)
    expect(isAlive(g.grandchild)).toBe(false)
  })

  it('terminateGroup sweeps a grandchild whose leader is already gone', async () => {
    const g = await spawnGroup(true)
    process.kill(g.pid, 'SIGKILL') // only the leader
    await waitUntil(() => !isAlive(g.pid), 3000)
    expect(isAlive(g.grandchild)).toBe(true)
    expect(isGroupAlive(g.pid)).toBe(true)
    await terminateGroup(g.pid, { graceMs: 200 })
    expect(isAlive(g.grandchild)).toBe(false)
  })

  it('terminateGroup returns at once when nothing is left', async () => {
    const started = Date.now()
    await terminateGroup(deadPid(), { graceMs: 60_000 })
    // far less than the grace: nothing was waited for
    expect(Date.now() - started).toBeLessThan(20_000)
  })
})
