import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CHANNELS } from '../../src-preload/contract/bridge'
import type { CairnBridge } from '../../src-preload/contract/bridge'
import { contextBridge, ipcRenderer } from './electron-mock'

vi.mock('electron', () => import('./electron-mock'))

/** window.cairn as the preload builds it (`on` also returns a remover) */
interface Exposed {
  request: CairnBridge['request']
  on: (e: string, l: (p: never) => void) => () => void
  off: (e: string, l: (p: never) => void) => void
}

let cairn: Exposed

beforeAll(async () => {
  await import('../../src-preload/index')
  expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1)
  const [name, api] = contextBridge.exposeInMainWorld.mock.calls[0] as unknown as [string, Exposed]
  expect(name).toBe('cairn')
  cairn = api
})

const emit = (event: string, payload: unknown) =>
  ipcRenderer.emit(CHANNELS.event, { sender: null }, { event, payload })

describe('the preload', () => {
  it('exposes exactly one global, window.cairn, with request, on and off', () => {
    expect(Object.keys(cairn).sort()).toEqual(['off', 'on', 'request'])
    for (const v of Object.values(cairn)) expect(typeof v).toBe('function')
    // one listener on the event channel, none anywhere else; ipcRenderer itself is not exposed
    expect(ipcRenderer.eventNames()).toEqual([CHANNELS.event])
    expect(ipcRenderer.listenerCount(CHANNELS.event)).toBe(1)
    expect(Object.values(cairn)).not.toContain(ipcRenderer)
  })

  it('request invokes the request channel with (route, input) and returns the result', async () => {
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, data: { sessions: [], total: 0 } })
    const r = await cairn.request('sessions.list', { limit: 3 })
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(CHANNELS.request, 'sessions.list', { limit: 3 })
    expect(r).toEqual({ ok: true, data: { sessions: [], total: 0 } })
  })

  it('on dispatches events by name; off removes the listener', () => {
    const changed = vi.fn()
    const status = vi.fn()
    cairn.on('sessions.changed', changed)
    cairn.on('mcp.status', status)
    emit('sessions.changed', { sessionId: 'a' })
    expect(changed).toHaveBeenCalledWith({ sessionId: 'a' })
    expect(status).not.toHaveBeenCalled()
    cairn.off('sessions.changed', changed)
    emit('sessions.changed', { sessionId: 'b' })
    expect(changed).toHaveBeenCalledTimes(1)
    emit('mcp.status', { name: 'x' })
    expect(status).toHaveBeenCalledWith({ name: 'x' })
    cairn.off('mcp.status', status)
  })

  it('on returns a function that removes that listener (function identity does not survive the contextBridge)', () => {
    const l = vi.fn()
    const remove = cairn.on('agent', l)
    emit('agent', { seq: 0 })
    remove()
    emit('agent', { seq: 1 })
    expect(l).toHaveBeenCalledTimes(1)
  })

  it('a failing listener does not keep the others from their event', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const bad = vi.fn(() => {
      throw new Error('boom')
    })
    const good = vi.fn()
    cairn.on('sessions.changed', bad)
    cairn.on('sessions.changed', good)
    emit('sessions.changed', { sessionId: null })
    expect(good).toHaveBeenCalledTimes(1)
    expect(error).toHaveBeenCalled()
    cairn.off('sessions.changed', bad)
    cairn.off('sessions.changed', good)
    error.mockRestore()
  })

  it('ignores malformed messages and refuses a listener that is not a function', () => {
    expect(() => ipcRenderer.emit(CHANNELS.event, {}, null)).not.toThrow()
    expect(() => ipcRenderer.emit(CHANNELS.event, {}, { event: 'nope' })).not.toThrow()
    expect(() => cairn.on('agent', 'not a function' as never)).toThrow(TypeError)
  })
})

describe('the preload source', () => {
  it('imports nothing of the contract at run time but the channel names', async () => {
    const { readFileSync } = await import('node:fs')
    const src = readFileSync(new URL('../../src-preload/index.ts', import.meta.url), 'utf8')
    const valueImports = [...src.matchAll(/^import\s+(?!type\b)(.*?)\s+from\s+'([^']+)'/gms)].map(
      (m) => `${m[1]} from ${m[2]}`,
    )
    expect(valueImports.sort()).toEqual([
      '{ CHANNELS } from ./contract/bridge',
      '{ contextBridge, ipcRenderer } from electron',
    ])
  })
})
