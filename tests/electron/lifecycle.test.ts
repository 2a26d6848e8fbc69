import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { App } from 'electron'
import { SHUTDOWN_TIMEOUT_MS, quitCleanly } from '../../src-main/electron/lifecycle'

function fakeApp() {
  const app = Object.assign(new EventEmitter(), { exit: vi.fn() })
  const quit = () => {
    const event = { preventDefault: vi.fn() }
    app.emit('before-quit', event)
    return event
  }
  return { app, quit, typed: app as unknown as Pick<App, 'on' | 'exit'> }
}

afterEach(() => void vi.useRealTimers())

describe('quitting cleanly', () => {
  it('exits after the shutdown even when it fails', async () => {
    const { quit, typed, app } = fakeApp()
    const onError = vi.fn()
    quitCleanly(
      typed,
      async () => {
        throw new Error('MCP server would not stop')
      },
      { onError },
    )
    expect(quit().preventDefault).toHaveBeenCalled()
    await vi.waitFor(() => expect(app.exit).toHaveBeenCalledWith(0))
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'MCP server would not stop' }),
    )
  })

  it(`gives up waiting after ${SHUTDOWN_TIMEOUT_MS / 1000} s`, async () => {
    vi.useFakeTimers()
    const { quit, typed, app } = fakeApp()
    const shutdown = vi.fn(() => new Promise<void>(() => {})) // never ends
    quitCleanly(typed, shutdown)
    quit()
    await vi.advanceTimersByTimeAsync(SHUTDOWN_TIMEOUT_MS - 1)
    expect(app.exit).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(app.exit).toHaveBeenCalledWith(0)
    expect(shutdown).toHaveBeenCalledTimes(1)
  })
})
