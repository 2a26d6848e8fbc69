/**
 * Saving the settings never stalls the event loop: waiting for a lock another process holds
 * is asynchronous, so timers and a running turn's stream go on meanwhile. Proved by the
 * order of events; the stall itself is measured by `npm run bench:settings`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { hostname } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import { createHarness, type Harness } from '../support/agent-harness'
import { slowText } from '../support/openai-server'
import { useTempDirs } from './temp-dirs'

const tempDir = useTempDirs()
const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c()
})

/** A live process of this machine that is not us: the lock's holder. */
function otherProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  cleanup.push(() => child.kill('SIGKILL'))
  return child
}

/** Writes the lock file as another live process holding it would. */
function holdLock(lockPath: string, pid: number): void {
  fs.writeFileSync(
    lockPath,
    JSON.stringify({ pid, host: hostname(), time: Date.now(), token: 'other-process' }),
  )
}

describe('settings saves and the event loop', () => {
  it('waits for a lock another process holds without blocking timers', async () => {
    const store = openSettings(tempDir())
    const lock = `${store.path}.lock`
    holdLock(lock, otherProcess().pid!)
    const order: string[] = []
    setTimeout(() => {
      order.push('timer ran; the other process releases the lock')
      fs.rmSync(lock)
    }, 100)
    await store.update((s) => {
      s.activeModel = 'after the wait'
    })
    order.push('saved')
    expect(order).toEqual(['timer ran; the other process releases the lock', 'saved'])
    expect(openSettings(store.path.replace(/settings\.json$/, '')).get().activeModel).toBe(
      'after the wait',
    )
  })

  it('a running turn keeps streaming while a save waits for the lock', async () => {
    const h: Harness = await createHarness()
    cleanup.push(() => h.close())
    const store = openSettings(h.dir)
    const lock = `${store.path}.lock`
    h.server.enqueue(slowText(30, 15))
    let saving = false
    let deltasWhileSaving = 0
    const turn = h.turn('stream', {
      onEvent: (e) => {
        if (e.type === 'text_delta' && saving) deltasWhileSaving++
      },
    })
    // once the stream has started, another process takes the lock for a while
    await new Promise<void>((resolve) => {
      const check = (): void =>
        h.events.some((e) => e.type === 'text_delta') ? resolve() : void setTimeout(check, 5)
      check()
    })
    holdLock(lock, otherProcess().pid!)
    setTimeout(() => fs.rmSync(lock), 150)
    saving = true
    await store.update((s) => {
      s.systemPrompt = 'saved during a turn'
    })
    saving = false
    const { outcome } = await turn
    expect(outcome.reason).toBe('completed')
    expect(deltasWhileSaving).toBeGreaterThan(0)
    expect(store.get().systemPrompt).toBe('saved during a turn')
  })
})
