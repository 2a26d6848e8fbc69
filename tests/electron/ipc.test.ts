import { describe, expect, it, vi } from 'vitest'
import type { IpcMain, WebContents } from 'electron'
import { CHANNELS } from '../../src-preload/contract/bridge'
import { routeInputs } from '../../src-preload/contract/routes'
import type { AppEvent } from '../../src-preload/contract/app-events'
import { ExpectedError } from '../../src-main/core/errors'
import { createRouter, type Handlers } from '../../src-main/ipc/router'
import { EventHub } from '../../src-main/services/host/event-hub'
import { forwardEvents, handleRequests } from '../../src-main/electron/ipc'
import { APP_ORIGIN, trustedOrigins } from '../../src-main/electron/security'
import { FakeWebContents } from './electron-mock'

type Invoke = (event: unknown, route: unknown, input: unknown) => Promise<unknown>

function setup(origins = trustedOrigins(undefined)) {
  const calls: string[] = []
  const handlers = Object.fromEntries(
    Object.keys(routeInputs).map((route) => [
      route,
      vi.fn(async (input: unknown) => {
        calls.push(route)
        if (route === 'sessions.delete') throw new ExpectedError('not_found', 'No such session.')
        return { route, input }
      }),
    ]),
  ) as unknown as Handlers
  const router = createRouter(handlers)
  const registered = new Map<string, Invoke>()
  const ipcMain = {
    handle: (channel: string, h: Invoke) => void registered.set(channel, h),
    removeHandler: (channel: string) => void registered.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>
  const remove = handleRequests(ipcMain, router, origins)
  const invoke = (frame: unknown, route: unknown, input: unknown) =>
    registered.get(CHANNELS.request)!({ senderFrame: frame }, route, input)
  return { calls, invoke, remove, registered }
}

const top = (url: string) => ({ url, parent: null })

describe('the IPC request handler', () => {
  it('answers a request from the top frame of app://cairn with { ok, data }', async () => {
    const { invoke, calls } = setup()
    const r = await invoke(top(`${APP_ORIGIN}/index.html`), 'sessions.list', { limit: 5 })
    expect(r).toEqual({ ok: true, data: { route: 'sessions.list', input: { limit: 5 } } })
    expect(calls).toEqual(['sessions.list'])
  })

  it.each([
    ['no sender frame', null],
    ['a subframe of our page', { url: `${APP_ORIGIN}/index.html`, parent: {} }],
    ['another origin', top('https://evil.example/')],
    ['a file: page', top('file:///tmp/index.html')],
    ['a look-alike host', top('app://cairn.evil/index.html')],
    ['the dev server when it is not trusted', top('http://localhost:5173/')],
    [
      'a frame that throws when looked at',
      {
        get url(): string {
          throw new Error('frame disposed')
        },
        parent: null,
      },
    ],
  ])('rejects %s with forbidden, before looking at the request', async (_name, frame) => {
    const { invoke, calls } = setup()
    // a route that does not exist and an input that breaks the schema: still "forbidden"
    const r = await invoke(frame, 'no.such.route', { junk: true })
    expect(r).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } })
    const r2 = await invoke(frame, 'sessions.list', {})
    expect((r2 as { error: { code: string } }).error.code).toBe('forbidden')
    expect(calls).toEqual([])
  })

  it('trusts the dev server origin only when it is configured', async () => {
    const { invoke, calls } = setup(trustedOrigins('http://localhost:5173/'))
    const r = await invoke(top('http://localhost:5173/index.html'), 'app.info', {})
    expect(r).toMatchObject({ ok: true })
    expect(calls).toEqual(['app.info'])
  })

  it('rejects an unknown route and invalid input with a clear bad_request', async () => {
    const { invoke, calls } = setup()
    const frame = top(`${APP_ORIGIN}/index.html`)
    const unknown = await invoke(frame, 'sessions.drop', {})
    expect(unknown).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'There is no route named "sessions.drop".' },
    })
    const invalid = (await invoke(frame, 'sessions.rename', { id: 5 })) as {
      ok: boolean
      error: { code: string; message: string }
    }
    expect(invalid.ok).toBe(false)
    expect(invalid.error.code).toBe('bad_request')
    expect(invalid.error.message).toMatch(/^Invalid input for sessions\.rename: id: .*; title: /)
    expect(calls).toEqual([])
  })

  it('turns a handler error into { ok: false, error }', async () => {
    const { invoke } = setup()
    const r = await invoke(top(`${APP_ORIGIN}/`), 'sessions.delete', { id: 's1' })
    expect(r).toEqual({ ok: false, error: { code: 'not_found', message: 'No such session.' } })
  })

  it('can be removed', () => {
    const { remove, registered } = setup()
    expect(registered.has(CHANNELS.request)).toBe(true)
    remove()
    expect(registered.has(CHANNELS.request)).toBe(false)
  })
})

describe('events to a window', () => {
  const event: AppEvent = { event: 'sessions.changed', payload: { sessionId: 's1' } }
  const origins = trustedOrigins(undefined)

  function page(url = `${APP_ORIGIN}/index.html`) {
    const contents = new FakeWebContents()
    const hub = new EventHub()
    forwardEvents(contents as unknown as WebContents, hub, origins)
    contents.url = url
    return { contents, hub }
  }
  const navigate = (c: FakeWebContents, isSameDocument = false) =>
    c.emit('did-start-navigation', { isMainFrame: true, isSameDocument })

  it('reach webContents.send once the page has loaded, and stop when it is destroyed', () => {
    const { contents, hub } = page()
    hub.publish(event)
    expect(contents.send).not.toHaveBeenCalled() // not loaded yet
    contents.emit('did-finish-load')
    expect(hub.subscriberCount).toBe(1)
    hub.publish(event)
    expect(contents.send).toHaveBeenCalledWith(CHANNELS.event, event)
    contents.destroy()
    expect(hub.subscriberCount).toBe(0)
    hub.publish(event)
    expect(contents.send).toHaveBeenCalledTimes(1)
  })

  it('unsubscribe on a reload and subscribe again when the page is back', () => {
    const { contents, hub } = page()
    contents.emit('did-finish-load')
    navigate(contents, true) // an in-page (hash) navigation keeps the page
    expect(hub.subscriberCount).toBe(1)
    navigate(contents)
    expect(hub.subscriberCount).toBe(0)
    hub.publish(event)
    expect(contents.send).not.toHaveBeenCalled()
    contents.emit('did-finish-load')
    expect(hub.subscriberCount).toBe(1)
    contents.emit('did-finish-load') // a second load event does not subscribe twice
    expect(hub.subscriberCount).toBe(1)
  })

  it('stop when the renderer crashes, and never start for a page that is not ours', () => {
    const { contents, hub } = page()
    contents.emit('did-finish-load')
    contents.emit('render-process-gone')
    expect(hub.subscriberCount).toBe(0)
    const other = page('https://example.com/')
    other.contents.emit('did-finish-load')
    expect(other.hub.subscriberCount).toBe(0)
  })

  it('are not sent to a webContents that is already destroyed', () => {
    const { contents, hub } = page()
    contents.emit('did-finish-load')
    contents.destroyed = true // destroyed, 'destroyed' not yet emitted
    hub.publish(event)
    expect(contents.send).not.toHaveBeenCalled()
  })
})
