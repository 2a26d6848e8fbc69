/**
 * `cairn` at a terminal after a command met a damaged database: it asks, as at open,
 * whether to copy the database aside; no moves nothing, yes moves it (and its WAL and SHM)
 * and the next open starts a new one.
 */
import fs from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { tellLateDamage } from '../../src-main/cli/open-data'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openAppServices } from '../../src-main/services/host/app-services'
import { useTempDirs } from '../settings/temp-dirs'
import { damagePages } from './late-damage'

const tempDir = useTempDirs()

function terminal(answer: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true })
  let said = ''
  const stderr = new PassThrough()
  stderr.on('data', (d: Buffer) => {
    said += d.toString()
    // the question was put: the user answers
    if (said.includes('[y/N]') && !stdin.writableEnded) stdin.end(`${answer}\n`)
  })
  return { streams: { stdin, stderr }, said: () => said }
}

/** services on a data directory whose messages' pages are damaged, the damage met once */
function damagedServices() {
  const dir = tempDir()
  const store = createSessionStore(dir)
  const id = store.createSession({ title: 't' }).id
  for (let i = 0; i < 20; i++)
    store.appendMessage(id, { role: 'user', content: `m${i} `.repeat(80) })
  store.close()
  damagePages(path.join(dir, 'cairn.db'), 'messages')
  const app = openAppServices(dir)
  expect(() => app.store.listMessages(id)).toThrow(/part of it is damaged/)
  return { dir, app }
}

const asides = (dir: string): string[] => fs.readdirSync(dir).filter((f) => f.includes('damaged'))

describe('after a command met a damaged database, at a terminal', () => {
  it('no: nothing is changed', async () => {
    const { dir, app } = damagedServices()
    const t = terminal('n')
    expect(await tellLateDamage(app, null, t.streams)).toBe(true)
    expect(t.said()).toContain('Copy the damaged database aside and start a new one? [y/N]')
    expect(t.said()).toContain('Nothing was changed.')
    expect(asides(dir)).toEqual([])
  })

  it('yes: it is moved aside and the next open starts a new one', async () => {
    const { dir, app } = damagedServices()
    const t = terminal('y')
    expect(await tellLateDamage(app, null, t.streams)).toBe(true)
    expect(t.said()).toMatch(
      /moved to .*cairn\.db\.damaged-.*; the next cairn command starts a new one/,
    )
    expect(asides(dir).filter((f) => !/-(wal|shm)$/.test(f))).toHaveLength(1)
    const fresh = openAppServices(dir)
    try {
      expect(fresh.store.listSessions({ limit: 5 }).total).toBe(0)
    } finally {
      fresh.close()
    }
  })

  it('no damage: says nothing, asks nothing', async () => {
    const dir = tempDir()
    const app = openAppServices(dir)
    const t = terminal('y')
    expect(await tellLateDamage(app, null, t.streams)).toBe(false)
    expect(t.said()).toBe('')
    app.close()
  })
})
